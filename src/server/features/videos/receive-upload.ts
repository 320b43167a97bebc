import { pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { AppError, badRequest, notFound } from '#server/errors';
import { createHashingStream } from '#server/features/submissions/proof-hash';
import type { StoragePort, StoredObject } from '#server/storage/port';
import type { Reservation, VideoQuota } from './quota';
import { storageFull } from './quota';
import {
  createUploadGuard,
  StorageFullError,
  UnsupportedVideoError,
  UploadTooLargeError,
} from './upload-guard';

/** Room for the part headers and boundaries around the video and the dare id. */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** The form has exactly two parts: the `dareId` field (optional, first) and the `video` file. */
const PART_LIMITS = {
  parts: 2,
  files: 1,
  fields: 1,
  fieldNameSize: 16,
  // A dare id: at most 10 digits. A longer value arrives truncated and is refused.
  fieldSize: 16,
  headerPairs: 8,
  // One byte over the limit is enough to know the file is too large; busboy stops there.
  fileSize: SUBMISSION_LIMITS.videoMaxBytes + 1,
};

const MAX_DARE_ID = 2 ** 31 - 1;

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', SUBMISSION_MESSAGES.videoTooLarge);

export interface ReceiveUploadDeps {
  storage: StoragePort;
  quota: VideoQuota;
  bodyTimeoutMs: number;
  /** Refuses a dare the uploader cannot submit to, before anything is stored. */
  checkDare(dareId: number): Promise<unknown>;
}

/** Why a multipart parse or a stream failed, as the client should hear it. */
function toClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof UploadTooLargeError) return tooLarge();
  if (error instanceof UnsupportedVideoError)
    return new AppError('UNSUPPORTED_MEDIA_TYPE', SUBMISSION_MESSAGES.videoType);
  if (error instanceof StorageFullError) return storageFull();
  const failure = error as { code?: string; statusCode?: number; syscall?: string };
  // The disk failing (ENOSPC, EACCES, ...) is ours to log: a 500.
  if (failure?.syscall) return error;
  if (failure?.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (failure?.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', SUBMISSION_MESSAGES.uploadParts);
  // Anything else the parser or the incoming stream threw is a malformed body.
  return badRequest(SUBMISSION_MESSAGES.uploadMalformed);
}

function parseDareId(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value) || Number(value) > MAX_DARE_ID)
    throw notFound(SUBMISSION_MESSAGES.dareNotFound);
  return Number(value);
}

/**
 * Reads POST /api/upload-video's body: the dare id (required, and checked before the file), then the
 * video streamed through the guard into storage. Anything else in the form is refused at once.
 * The whole body must arrive within `bodyTimeoutMs`, whatever the answer: past it the connection
 * is closed. A client that goes away or stalls leaves no file and no open handle behind: every
 * stream is joined with `pipeline`, which destroys them all, and the store deletes what it wrote.
 * After a refusal the rest of a body of acceptable size is read and dropped, so the browser gets
 * the answer rather than a reset connection.
 */
export async function receiveUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ReceiveUploadDeps,
): Promise<StoredObject & { dareId: number; sha256: string }> {
  const raw = request.raw;
  let bodyEnded = false;
  const controller = new AbortController();
  const fail = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => {
    fail(new AppError('REQUEST_TIMEOUT', SUBMISSION_MESSAGES.uploadTimedOut));
    if (reply.sent) raw.socket?.destroy();
    else reply.raw.once('finish', () => raw.socket?.destroy());
  }, deps.bodyTimeoutMs);
  raw.once('end', () => {
    bodyEnded = true;
    clearTimeout(timer);
  });
  raw.once('close', () => {
    clearTimeout(timer);
    if (!bodyEnded) fail(badRequest(SUBMISSION_MESSAGES.uploadMalformed));
  });
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});

  let dareId = 0;
  let dareChecked = false;
  // Opened once the dare is checked: a refused request makes no room by deleting others' uploads.
  let reservation: Reservation | null = null;
  const declared = Number(request.headers['content-length']);
  async function read(): Promise<StoredObject & { dareId: number; sha256: string }> {
    let stored: StoredObject | null = null;
    let sha256 = '';
    try {
      for await (const part of request.parts({ limits: PART_LIMITS })) {
        if (stored) throw new AppError('PAYLOAD_TOO_LARGE', SUBMISSION_MESSAGES.uploadParts);
        if (part.type === 'field') {
          if (part.fieldname !== 'dareId' || part.valueTruncated)
            throw badRequest(SUBMISSION_MESSAGES.uploadParts);
          dareId = parseDareId(part.value);
          await deps.checkDare(dareId);
          dareChecked = true;
          continue;
        }
        if (part.fieldname !== 'video') throw badRequest(SUBMISSION_MESSAGES.videoMissing);
        // Every upload is for one open dare, named before the file: nothing is stored otherwise.
        if (!dareChecked) throw badRequest(SUBMISSION_MESSAGES.uploadNeedsDare);
        const claim = await deps.quota.open(Number.isFinite(declared) && declared > 0 ? declared : undefined);
        reservation = claim;
        // The parser destroys a part the body cut short, possibly before we get to it.
        if (part.file.destroyed) throw badRequest(SUBMISSION_MESSAGES.uploadMalformed);
        let type = 'application/octet-stream';
        const guard = createUploadGuard(
          SUBMISSION_LIMITS.videoMaxBytes,
          (sniffed) => {
            type = sniffed;
          },
          (bytes) => claim.add(bytes),
        );
        // The proof's fingerprint: the bytes hashed as they go to the store, after the guard, so
        // exactly what is written (decision 038).
        const hasher = createHashingStream();
        // Joined both ways: the part ending early destroys the guard, the store failing destroys the part.
        const guarded = pipeline(part.file, guard, hasher, () => {});
        stored = await deps.storage.put(guarded, () => type, { signal: controller.signal });
        sha256 = hasher.digest();
      }
      if (controller.signal.aborted) throw controller.signal.reason;
      if (!stored) throw badRequest(SUBMISSION_MESSAGES.videoMissing);
      reservation?.keep();
      return { ...stored, dareId, sha256 };
    } catch (error) {
      if (stored) await deps.storage.remove(stored.key);
      reservation?.release();
      throw controller.signal.aborted ? controller.signal.reason : error;
    }
  }

  try {
    if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? ''))
      throw badRequest(SUBMISSION_MESSAGES.uploadMalformed);
    // Too large to be worth reading: answered and the connection closed.
    if (
      Number(request.headers['content-length']) >
      SUBMISSION_LIMITS.videoMaxBytes + MULTIPART_OVERHEAD_BYTES
    )
      throw new AppError('PAYLOAD_TOO_LARGE', SUBMISSION_MESSAGES.videoTooLarge, {}, { connection: 'close' });
    const reading = read();
    try {
      return await Promise.race([reading, aborted]);
    } catch (error) {
      reading.catch(() => {});
      throw error;
    }
  } catch (error) {
    if (!bodyEnded) {
      raw.unpipe();
      raw.resume();
    }
    throw toClientError(error);
  }
}
