import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3Settings } from '#server/config';
import type { ByteRange, ListedObject, StoragePort, StoredObject } from './port';

const KEY_PATTERN = /^[a-f0-9]{32}$/;
/** An upload on its way to the bucket, in the spool folder (`DATA_DIR/tmp`). */
const SPOOL_FILE_PATTERN = /^s3-upload-[a-f0-9]{32}\.part$/;

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** '' or a folder ending in '/'. */
  prefix?: string;
  /** Where an upload waits while it arrives (the data folder's `tmp/`); made when needed. */
  spoolDir: string;
  /** Keys per ListObjectsV2 page (S3's maximum, 1000, unless a test wants many pages). */
  listPageSize?: number;
}

/** The SDK's own logger, silent as by default, minus its console warning on every failed streamed request. */
const SILENT_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

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
    // Its default logger prints "An error was encountered in a non-retryable streaming request"
    // to the console for every failed PutObject of a stream; the adapter retries those itself.
    logger: SILENT_LOGGER,
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

const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'InternalError',
  'ServiceUnavailable',
]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

/** A failure worth another attempt: throttling, a 5xx, a timeout or a dropped connection. */
function isTransient(error: unknown): boolean {
  const failure = error as {
    name?: string;
    code?: string;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: number };
  } | null;
  const status = failure?.$metadata?.httpStatusCode;
  return (
    Boolean(failure?.$retryable) ||
    (status !== undefined && (status === 429 || status >= 500)) ||
    TRANSIENT_NAMES.has(failure?.name ?? '') ||
    TRANSIENT_CODES.has(failure?.code ?? '')
  );
}

interface SpoolFile {
  handle: FileHandle;
  close(): Promise<void>;
}

/**
 * A fresh file in `dir` for one upload, unlinked as soon as it is open: its bytes live on disk
 * (not in memory) while the handle is open and are freed when it closes or the process dies, so
 * no outcome, a crash included, leaves a file behind, and no other process's clean-up can take it
 * away. Where the system refuses to unlink an open file it is removed at close instead.
 */
async function openSpoolFile(dir: string): Promise<SpoolFile> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `s3-upload-${randomBytes(16).toString('hex')}.part`);
  const handle = await open(file, 'wx+', 0o600);
  const unlinked = await rm(file).then(
    () => true,
    () => false,
  );
  return {
    handle,
    async close() {
      await handle.close();
      if (!unlinked) await rm(file, { force: true });
    },
  };
}

/** Writes all of `bytes` at `position` (a write may take fewer bytes than asked). */
async function writeAt(handle: FileHandle, bytes: Buffer, position: number) {
  for (let done = 0; done < bytes.length; )
    done += (await handle.write(bytes, done, bytes.length - done, position + done)).bytesWritten;
}

/** How much of a spool file is read at a time when it is sent. */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * The first `size` bytes of the spool file, as a stream of its own: destroying it leaves the handle
 * open (a FileHandle's own read stream closes it), for the next attempt to read again.
 */
function readSpool(handle: FileHandle, size: number): Readable {
  async function* chunks() {
    for (let position = 0; position < size; ) {
      const length = Math.min(READ_CHUNK_BYTES, size - position);
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
      if (bytesRead === 0) throw new Error(`The spool file ended at ${position} of ${size} bytes`);
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Deletes the spool files a killed process may have left (only where unlinking an open file failed). */
export async function clearSpool(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await Promise.all(
    names
      .filter((name) => SPOOL_FILE_PATTERN.test(name))
      .map((name) => rm(path.join(dir, name), { force: true })),
  );
}

/**
 * Videos as objects in an S3-compatible bucket: `<prefix><key>`, the content type as the object's
 * own. An upload streams into a spool file (unlinked, on disk) as it arrives, then goes up as one
 * PutObject of known length read from that file: constant memory whatever its size or the number
 * in flight. One that fails or is aborted leaves neither an object nor a file behind.
 */
export function createS3Storage({
  client,
  bucket,
  prefix = '',
  spoolDir,
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

  /**
   * One PutObject of the spooled bytes. The SDK cannot retry a request whose body is a stream (it
   * was read), so failures worth it are retried here, each attempt reading the file from the start,
   * as many attempts as the client's `maxAttempts` (3) with its back-off (full jitter from 100 ms).
   */
  const putFile = async (
    key: string,
    spool: FileHandle,
    size: number,
    contentType: string,
    signal: AbortSignal | undefined,
  ) => {
    const attempts = await client.config.maxAttempts();
    for (let attempt = 1; ; attempt++) {
      const body = readSpool(spool, size);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: objectKey(key),
            Body: body,
            ContentLength: size,
            ContentType: contentType,
          }),
          // Not cancelled by an abort: a cancelled request may still complete on the service
          // after the delete that follows it (measured with s3rver under load), leaving an object
          // behind. It runs to its end (the file is at most the upload cap) and is deleted then.
        );
        return;
      } catch (error) {
        if (attempt >= attempts || signal?.aborted || !isTransient(error)) throw error;
      } finally {
        body.destroy();
      }
      await sleep(Math.random() * Math.min(20_000, 100 * 2 ** attempt), undefined, { signal });
    }
  };

  return {
    async put(body, contentTypeOf, options = {}) {
      const { signal } = options;
      const key = randomBytes(16).toString('hex');
      const typeNow = () => (typeof contentTypeOf === 'function' ? contentTypeOf() : contentTypeOf);
      // Destroying the body ends the spooling at its next read; a PutObject under way finishes and
      // its object is deleted (putFile).
      const stop = () => body.destroy(signal?.reason);
      if (signal?.aborted) stop();
      signal?.addEventListener('abort', stop, { once: true });
      let spool: SpoolFile | undefined;
      try {
        spool = await openSpoolFile(spoolDir);
        let size = 0;
        // The port promises the content type once the first bytes have come (an object store may
        // create the object then): it is read then, and a change by the end is refused.
        let contentType: string | undefined;
        for await (const chunk of body as AsyncIterable<Buffer | string>) {
          contentType ??= typeNow();
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          await writeAt(spool.handle, bytes, size);
          size += bytes.length;
        }
        signal?.throwIfAborted();
        const finalType = typeNow();
        contentType ??= finalType;
        if (finalType !== contentType)
          throw new Error(`Content type changed from ${contentType} to ${finalType} after the first bytes`);
        try {
          await putFile(key, spool.handle, size, contentType, signal);
          // An abort that came while the answer was on its way did not stop the upload: undo it.
          signal?.throwIfAborted();
        } catch (error) {
          // Also covers an object completed on the service whose answer was lost; if even this
          // fails, the clean-up job deletes the object an hour later, as nothing points at it.
          await remove(key).catch(() => {});
          throw error;
        }
        return { key, size, contentType };
      } catch (error) {
        // Not read to its end (the spool could not be opened or written): the upload stops there.
        body.destroy();
        throw signal?.aborted ? signal.reason : error;
      } finally {
        signal?.removeEventListener('abort', stop);
        await spool?.close().catch(() => {});
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
export async function openS3Storage(settings: S3Settings, spoolDir: string): Promise<StoragePort> {
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
  // What a process killed mid-upload could not unlink; a live one's spool files are unlinked already.
  await mkdir(spoolDir, { recursive: true });
  await clearSpool(spoolDir);
  return createS3Storage({ client, bucket: settings.bucket, prefix: settings.prefix, spoolDir });
}
