import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../config';
import type { ByteRange, ListedObject, StoragePort, StoredObject } from './port';

const KEY_PATTERN = /^[a-f0-9]{32}$/;

/**
 * S3's smallest part. A part is buffered whole before it is sent (S3 needs each request's length),
 * and one part at a time is in flight, so an upload in progress holds about this much memory. A
 * 10 MB video is one PutObject up to 5 MiB, else a multipart upload of two parts.
 */
const PART_BYTES = 5 * 1024 * 1024;

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** '' or a folder ending in '/'. */
  prefix?: string;
  /** Keys per ListObjectsV2 page (S3's maximum, 1000, unless a test wants many pages). */
  listPageSize?: number;
}

/** A client for the configured service; path-style and lenient checksums for S3-compatible ones. */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // The SDK's default CRC32 on every request is not implemented by every S3-compatible service
    // (older MinIO and R2 releases refuse it); AWS S3 keeps it.
    ...(settings.endpoint
      ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
      : {}),
    requestHandler: {
      connectionTimeout: 5_000,
      // Idle time on a socket, body included: a bucket that stops answering fails the request.
      requestTimeout: 60_000,
      // A video being played holds a socket for as long as the viewer reads (the SDK's default is 50).
      httpsAgent: { keepAlive: true, maxSockets: 256 },
      httpAgent: { keepAlive: true, maxSockets: 256 },
    },
  });
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * Videos as objects in an S3-compatible bucket: `<prefix><key>`, the content type as the object's
 * own. Uploads stream through in parts (lib-storage's Upload), never whole in memory; one that
 * fails or is aborted leaves neither an object nor a multipart upload behind.
 */
export function createS3Storage({
  client,
  bucket,
  prefix = '',
  listPageSize,
}: S3StorageOptions): StoragePort {
  const objectKey = (key: string) => {
    // Keys are ours (random hex); anything else could reach objects that are not videos.
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return `${prefix}${key}`;
  };
  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
  };

  return {
    async put(body, contentTypeOf, options = {}) {
      const { signal } = options;
      const key = randomBytes(16).toString('hex');
      // Destroying the body ends the upload at its next read: Upload then aborts its multipart
      // upload before done() rejects, so nothing is left when put() settles.
      const stop = () => body.destroy(signal?.reason);
      if (signal?.aborted) stop();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        const chunks: AsyncIterator<Buffer> = body[Symbol.asyncIterator]();
        // S3 takes the content type when the object is created, so it is read once the first
        // bytes are here: a sniffed type is known by then (the upload guard holds bytes back
        // until it has sniffed them), and checked again at the end.
        const first = await chunks.next();
        const contentType = typeof contentTypeOf === 'function' ? contentTypeOf() : contentTypeOf;
        let size = 0;
        const counted = Readable.from(
          (async function* () {
            try {
              for (let next = first; !next.done; next = await chunks.next()) {
                size += next.value.length;
                yield next.value;
              }
            } finally {
              // Upload stopped reading (a part failed): the body is destroyed, as a pipeline would.
              await chunks.return?.();
            }
          })(),
          { objectMode: false },
        );
        try {
          await new Upload({
            client,
            params: { Bucket: bucket, Key: objectKey(key), Body: counted, ContentType: contentType },
            partSize: PART_BYTES,
            queueSize: 1,
          }).done();
          // An abort that came after the last byte was read did not stop the upload: undo it.
          signal?.throwIfAborted();
          const finalType = typeof contentTypeOf === 'function' ? contentTypeOf() : contentTypeOf;
          if (finalType !== contentType)
            throw new Error(`Content type changed from ${contentType} to ${finalType} after the first bytes`);
        } catch (error) {
          // Also covers an object completed on the service whose answer was lost; if even this
          // fails, the clean-up job deletes the object an hour later, as nothing points at it.
          await remove(key).catch(() => {});
          throw error;
        }
        return { key, size, contentType };
      } catch (error) {
        throw signal?.aborted ? signal.reason : error;
      } finally {
        signal?.removeEventListener('abort', stop);
      }
    },

    async stat(key): Promise<StoredObject | null> {
      if (!KEY_PATTERN.test(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return {
          key,
          size: head.ContentLength ?? 0,
          contentType: head.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    read(key, range?: ByteRange): Readable {
      const request = new GetObjectCommand({
        Bucket: bucket,
        Key: objectKey(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      });
      const out = new PassThrough();
      // A viewer who goes away before the answer came cancels the request; after, pipeline
      // destroys the body it streams.
      const controller = new AbortController();
      out.once('close', () => {
        if (!out.writableFinished) controller.abort();
      });
      client
        .send(request, { abortSignal: controller.signal })
        .then(({ Body }) => pipeline(Body as Readable, out))
        .catch((error: unknown) => out.destroy(error as Error));
      return out;
    },

    remove,

    async list() {
      const objects: ListedObject[] = [];
      const pages = paginateListObjectsV2(
        { client, pageSize: listPageSize },
        { Bucket: bucket, Prefix: prefix },
      );
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(prefix.length) ?? '';
          if (!KEY_PATTERN.test(key)) continue;
          objects.push({ key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
        }
      }
      return objects;
    },
  };
}

/**
 * The storage the settings name, checked once: one listing call proves the endpoint, the bucket
 * and the credentials (and the list permission the clean-up job needs) before the server starts.
 */
export async function openS3Storage(settings: S3Settings): Promise<StoragePort> {
  const client = createS3Client(settings);
  const where = `s3://${settings.bucket}/${settings.prefix}${settings.endpoint ? ` at ${settings.endpoint}` : ` in ${settings.region}`}`;
  try {
    await client.send(
      new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix, MaxKeys: 1 }),
    );
  } catch (error) {
    client.destroy();
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(
      `Video storage ${where} cannot be listed (${reason}); check S3_BUCKET, S3_ENDPOINT, S3_REGION and the S3 credentials`,
    );
  }
  return createS3Storage({ client, bucket: settings.bucket, prefix: settings.prefix });
}
