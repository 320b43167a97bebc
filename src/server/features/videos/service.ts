import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUBMISSION_MESSAGES, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { Db } from '#server/db/client';
import { badRequest, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { SubmissionsService } from '#server/features/submissions/service';
import { isPublicStatus, type VideoAccess } from '#server/features/submissions/video-access';
import { uploadedKey } from '#server/features/submissions/video-url';
import { limit as hitLimit } from '#server/rate-limit/limit';
import type { RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import type { ByteRange, StoragePort } from '#server/storage/port';
import { createVideoQuota, type VideoQuota } from './quota';
import { receiveUpload } from './receive-upload';
import {
  findSubmissionsByVideoUrl,
  findSubmissionVideo,
  replacePendingUpload,
  takeOldestPendingUpload,
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
}: {
  db: Db;
  storage: StoragePort;
  capBytes: number;
  pendingPoolBytes: number;
}): VideoQuota {
  return createVideoQuota({
    storage,
    capBytes,
    pendingPoolBytes,
    attachedKeys: async () =>
      new Set((await uploadedVideoUrls(db)).map(uploadedKey).filter((key) => key !== null)),
    async evictOldestPending() {
      const oldest = await takeOldestPendingUpload(db);
      if (!oldest) return null;
      await storage.remove(oldest.key);
      return oldest.size;
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
  clock,
}: VideosDeps) {
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
      const stored = await receiveUpload(request, reply, {
        storage,
        quota,
        bodyTimeoutMs,
        checkDare: (dareId) => submissions.requireUploadableDare(user, dareId),
      });
      let replaced: { key: string; size: number }[];
      try {
        replaced = await replacePendingUpload(db, {
          key: stored.key,
          userId: user.id,
          dareId: stored.dareId,
          size: stored.size,
          sha256: stored.sha256,
          now: clock(),
        });
      } catch (error) {
        await storage.remove(stored.key);
        quota.freed(stored.size);
        throw error;
      }
      // One upload waits per account and dare: the one it replaces goes, bytes and all.
      for (const old of replaced) {
        await storage.remove(old.key);
        quota.freed(old.size);
      }
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
