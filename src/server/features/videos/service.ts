import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUBMISSION_LIMITS } from '#contract/limits';
import { SUBMISSION_MESSAGES, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { Db } from '#server/db/client';
import { AppError, badRequest, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { SubmissionsService } from '#server/features/submissions/service';
import { isPublicStatus, type VideoAccess } from '#server/features/submissions/video-access';
import { uploadedKey } from '#server/features/submissions/video-url';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import type { ByteRange, StoragePort } from '#server/storage/port';
import { createVideoQuota, SUBMIT_WINDOW_MS, type VideoQuota } from './quota';
import { receiveUpload } from './receive-upload';
import {
  findSubmissionsByVideoUrl,
  findSubmissionVideo,
  replacePendingUpload,
  takePendingUploadsToFree,
  unapprovedUploadBytes,
  uploadedVideoUrls,
} from './repo';

/**
 * The storage cap over this deployment's videos: attached ones counted from the submissions,
 * pending ones in their bounded pool, the oldest pending upload deleted when a new one needs room.
 */
export function createUploadQuota({
  db,
  storage,
  capBytes,
  pendingPoolBytes,
  clock,
}: {
  db: Db;
  storage: StoragePort;
  capBytes: number;
  pendingPoolBytes: number;
  clock: () => Date;
}): VideoQuota {
  return createVideoQuota({
    storage,
    capBytes,
    pendingPoolBytes,
    attachedKeys: async () =>
      new Set((await uploadedVideoUrls(db)).map(uploadedKey).filter((key) => key !== null)),
    async evictPending(bytes) {
      const madeBefore = new Date(clock().getTime() - SUBMIT_WINDOW_MS);
      let freed = 0;
      for (const upload of await takePendingUploadsToFree(db, bytes, madeBefore)) {
        await storage.remove(upload.key);
        freed += upload.size;
      }
      return freed;
    },
  });
}

/** What a video address plays: stored bytes (shared caches may keep public ones), or an approved link. */
export type Playback =
  | { kind: 'stored'; key: string; visibility: 'public' | 'private' }
  | { kind: 'redirect'; url: string };

export interface VideosDeps {
  db: Db;
  storage: StoragePort;
  submissions: Pick<SubmissionsService, 'requireUploadableDare'>;
  limiter: RateLimiter;
  quota: VideoQuota;
  videoAccess: VideoAccess;
  bodyTimeoutMs: number;
  /** What unapproved videos one account, and one client address, may hold (bytes; decision 061). */
  unapprovedLimits: { accountBytes: number; addressBytes: number };
  clock: () => Date;
}

/** Uploading proof videos, and who may play which one. */
export function createVideosService({
  db,
  storage,
  submissions,
  limiter,
  quota,
  videoAccess,
  bodyTimeoutMs,
  unapprovedLimits,
  clock,
}: VideosDeps) {
  const holdsTooMuch = (over: 'account' | 'address') =>
    new AppError(
      'INSUFFICIENT_STORAGE',
      over === 'account' ? SUBMISSION_MESSAGES.accountHoldsTooMuch : SUBMISSION_MESSAGES.addressHoldsTooMuch,
    );

  /**
   * Before any byte is stored: the uploader's unapproved videos, and their address's, leave room
   * for `bytes` more (the pending upload this one would replace left out).
   */
  async function requireRoomToHold(user: UserRow, address: string, dareId: number, bytes: number) {
    const held = await unapprovedUploadBytes(db, { userId: user.id, address, except: { dareId } });
    if (held.account + bytes > unapprovedLimits.accountBytes) throw holdsTooMuch('account');
    if (held.address + bytes > unapprovedLimits.addressBytes) throw holdsTooMuch('address');
  }

  return {
    /**
     * Stores a user's video and answers the URL a submission then points at. It reads the
     * multipart body itself, as a stream: the dare must take submissions before any byte of video
     * is stored, and a body that stalls or overruns is cut off (receive-upload.ts).
     */
    async upload(user: UserRow, request: FastifyRequest, reply: FastifyReply): Promise<string> {
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
          await requireRoomToHold(user, request.ip, dareId, expectedBytes);
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
    },

    /**
     * Records a video already in the store as its author's pending upload for a dare, as `upload`
     * records one, with no client address and no limits: the demo seed's videos, which no client
     * sent. Answers the URL a submission then points at.
     */
    async recordStoredUpload(
      userId: number,
      dareId: number,
      stored: { key: string; size: number; sha256: string },
    ): Promise<string> {
      await replacePendingUpload(db, { ...stored, userId, dareId, uploaderAddress: null, now: clock() });
      return `${UPLOADED_VIDEO_PREFIX}${stored.key}`;
    },

    /** An upload's own address plays only once a public submission points at it. */
    async publicUpload(key: string): Promise<Playback> {
      // Only our own key shape reaches the database (a %00 in the path cannot become a 500).
      if (!uploadedKey(`${UPLOADED_VIDEO_PREFIX}${key}`)) throw notFound('Video not found');
      const owners = await findSubmissionsByVideoUrl(db, `${UPLOADED_VIDEO_PREFIX}${key}`);
      if (!owners.some((owner) => isPublicStatus(owner.status))) throw notFound('Video not found');
      return { kind: 'stored', key, visibility: 'public' };
    },

    /**
     * A submission's video for this viewer. Pending and rejected ones play only for their author
     * and admins, or through a signed link (see video-access.ts); without a valid link a pending
     * video does not exist for the caller.
     */
    async playback(
      submissionId: number,
      viewer: UserRow | null,
      link: { expires?: number; signature?: string },
    ): Promise<Playback> {
      const submission = await findSubmissionVideo(db, submissionId);
      if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
      const isPublic = isPublicStatus(submission.status);
      if (!isPublic) {
        const allowed = viewer && (viewer.isAdmin || viewer.id === submission.userId);
        if (!allowed) {
          const check = videoAccess.check(submissionId, link.expires, link.signature);
          if (check === 'invalid') throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
          if (check === 'expired') throw forbidden(SUBMISSION_MESSAGES.videoLinkExpired);
        }
      }
      const key = uploadedKey(submission.videoUrl);
      if (key) return { kind: 'stored', key, visibility: isPublic ? 'public' : 'private' };
      // The server never fetches a client-given URL (no SSRF); it sends the player there, https
      // only, and only once an admin approved the link: no open redirect through a pending one.
      if (isPublic && submission.videoUrl.startsWith('https://'))
        return { kind: 'redirect', url: submission.videoUrl };
      throw notFound('This video is not available');
    },

    /** A stored video's size and type, and its bytes (all or one range); 404 when it is gone. */
    async open(key: string) {
      const object = await storage.stat(key);
      if (!object) throw notFound('Video not found');
      return { ...object, read: (range?: ByteRange) => storage.read(key, range) };
    },
  };
}

export type VideosService = ReturnType<typeof createVideosService>;
