/** A proof video stored as its uploader's pending upload for a dare, within what they may hold. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import { AppError, badRequest } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { limit as hitLimit } from '#server/rate-limit/limit';
import { RATE_LIMITS } from '#server/rate-limits';
import { receiveUpload } from './receive-upload';
import { replacePendingUpload, unapprovedUploadBytes } from './repo';
import type { VideosDeps } from './videos-deps';

const holdsTooMuch = (over: 'account' | 'address') =>
  new AppError(
    'INSUFFICIENT_STORAGE',
    over === 'account' ? SUBMISSION_MESSAGES.accountHoldsTooMuch : SUBMISSION_MESSAGES.addressHoldsTooMuch,
  );

/**
 * Before any byte is stored: the uploader's unapproved videos, and their address's, leave room
 * for `bytes` more (the pending upload this one would replace left out).
 */
async function requireRoomToHold(
  { db, unapprovedLimits }: VideosDeps,
  user: UserRow,
  address: string,
  dareId: number,
  bytes: number,
) {
  const held = await unapprovedUploadBytes(db, { userId: user.id, address, except: { dareId } });
  if (held.account + bytes > unapprovedLimits.accountBytes) throw holdsTooMuch('account');
  if (held.address + bytes > unapprovedLimits.addressBytes) throw holdsTooMuch('address');
}

/**
 * Stores a user's video and answers the URL a submission then points at. It reads the
 * multipart body itself, as a stream: the dare must take submissions before any byte of video
 * is stored, and a body that stalls or overruns is cut off (receive-upload.ts).
 */
export async function uploadVideo(
  deps: VideosDeps,
  user: UserRow,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const { db, storage, submissions, limiter, quota, bodyTimeoutMs, unapprovedLimits, clock } = deps;
  for (const [key, rule] of [
    [`upload:${user.id}`, RATE_LIMITS.videoUploads],
    [`upload-address:${request.ip}`, RATE_LIMITS.videoUploadsPerAddress],
  ] as const)
    await hitLimit(limiter, key, rule, 'Too many uploads; wait a few minutes');
  if (!request.isMultipart()) throw badRequest(SUBMISSION_MESSAGES.videoMissing);
  const declared = Number(request.headers['content-length']);
  const expectedBytes = Math.min(
    Number.isFinite(declared) && declared > 0 ? declared : SUBMISSION_LIMITS.videoMaxBytes,
    SUBMISSION_LIMITS.videoMaxBytes,
  );
  const stored = await receiveUpload(request, reply, {
    storage,
    quota,
    bodyTimeoutMs,
    async checkDare(dareId) {
      await submissions.requireUploadableDare(user, dareId);
      await requireRoomToHold(deps, user, request.ip, dareId, expectedBytes);
    },
  });
  const discard = async () => {
    await storage.remove(stored.key);
    quota.freed(stored.size);
  };
  let recorded: Awaited<ReturnType<typeof replacePendingUpload>>;
  try {
    recorded = await replacePendingUpload(
      db,
      {
        key: stored.key,
        userId: user.id,
        dareId: stored.dareId,
        size: stored.size,
        sha256: stored.sha256,
        uploaderAddress: request.ip,
        now: clock(),
      },
      unapprovedLimits,
    );
  } catch (error) {
    await discard();
    throw error;
  }
  // Parallel uploads can each pass the check before storing; the one recorded past a limit goes.
  if ('over' in recorded) {
    await discard();
    throw holdsTooMuch(recorded.over);
  }
  // One upload waits per account and dare: the one it replaces goes, bytes and all.
  for (const old of recorded.replaced) {
    await storage.remove(old.key);
    quota.freed(old.size);
  }
  return `${UPLOADED_VIDEO_PREFIX}${stored.key}`;
}

/**
 * Records a video already in the store as its author's pending upload for a dare, as `upload`
 * records one, with no client address and no limits: the demo seed's videos, which no client
 * sent. Answers the URL a submission then points at.
 */
export async function recordStoredUpload(
  { db, clock }: VideosDeps,
  userId: number,
  dareId: number,
  stored: { key: string; size: number; sha256: string },
): Promise<string> {
  await replacePendingUpload(db, { ...stored, userId, dareId, uploaderAddress: null, now: clock() });
  return `${UPLOADED_VIDEO_PREFIX}${stored.key}`;
}
