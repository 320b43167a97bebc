import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import {
  SUBMISSION_MESSAGES,
  submissionIdParamsSchema,
  UPLOADED_VIDEO_PREFIX,
  uploadVideoResponseSchema,
} from '../../../contract/submissions';
import type { Db } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../errors';
import { requireUser } from '../../plugins/authenticate';
import type { RateLimiter } from '../../plugins/rate-limit';
import { tooManyRequests } from '../../plugins/rate-limit';
import type { StoragePort } from '../../storage/port';
import { findSubmission, findSubmissionsByVideoUrl } from '../submissions/repo';
import { type SubmissionsService, uploadedKey } from '../submissions/service';
import { isPublicStatus, type VideoAccess } from './access';
import type { VideoQuota } from './quota';
import { receiveUpload } from './receive-upload';

const UPLOADS_PER_10_MIN = 20;

/** The signed link's parameters (see access.ts); absent for public videos. */
const videoLinkQuerySchema = z.object({
  expires: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 40)
    .optional(),
  signature: z.string().max(64).optional(),
});

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against a file of `size` bytes; null when unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return null;
  return { start, end };
}

export const videoRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: StoragePort;
  submissions: SubmissionsService;
  limiter: RateLimiter;
  quota: VideoQuota;
  videoAccess: VideoAccess;
  bodyTimeoutMs: number;
}> = async (app, { db, storage, submissions, limiter, quota, videoAccess, bodyTimeoutMs }) => {
  /** Streams a stored video with range support: players seek with 206 Partial Content. */
  async function stream(
    key: string,
    rangeHeader: string | undefined,
    reply: FastifyReply,
    visibility: 'public' | 'private',
  ) {
    const object = await storage.stat(key);
    if (!object) throw notFound('Video not found');
    reply.header('accept-ranges', 'bytes').header('content-type', object.contentType);
    // The bytes never change, but who may see them does (moderation): shared caches keep a public
    // video briefly, and never a pending one.
    reply.header('cache-control', visibility === 'public' ? 'public, max-age=600' : 'private, no-store');
    if (rangeHeader) {
      const range = parseRange(rangeHeader, object.size);
      if (!range) {
        reply.code(416).header('content-range', `bytes */${object.size}`);
        return reply.send();
      }
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
        .header('content-length', range.end - range.start + 1);
      return reply.send(storage.read(key, range));
    }
    reply.header('content-length', object.size);
    return reply.send(storage.read(key));
  }

  app.post(
    '/api/upload-video',
    {
      schema: {
        tags: ['submissions'],
        summary: 'Upload a video (multipart: video, dareId): MP4, WebM or OGG, at most 10 MB',
        consumes: ['multipart/form-data'],
        response: {
          200: uploadVideoResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
          408: errorBodySchema,
          409: errorBodySchema,
          413: errorBodySchema,
          415: errorBodySchema,
          429: errorBodySchema,
          507: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const hit = limiter.hit(`upload:${user.id}`, UPLOADS_PER_10_MIN, 10 * 60_000);
      if (!hit.allowed) throw tooManyRequests('Too many uploads; wait a few minutes', hit.retryAfterSeconds);
      if (!request.isMultipart()) throw badRequest(SUBMISSION_MESSAGES.videoMissing);
      const stored = await receiveUpload(request, reply, {
        storage,
        quota,
        bodyTimeoutMs,
        checkDare: (dareId) => submissions.requireOpenDare(dareId),
      });
      return { url: `${UPLOADED_VIDEO_PREFIX}${stored.key}` };
    },
  );

  // An upload's own address plays only once a public submission points at it.
  app.get(
    '/uploads/videos/:key',
    { schema: { hide: true, params: z.object({ key: z.string() }) } },
    async (request, reply) => {
      const owners = await findSubmissionsByVideoUrl(db, `${UPLOADED_VIDEO_PREFIX}${request.params.key}`);
      if (!owners.some((owner) => isPublicStatus(owner.status))) throw notFound('Video not found');
      return stream(request.params.key, request.headers.range, reply, 'public');
    },
  );

  app.get(
    '/api/video-proxy/:id',
    {
      schema: {
        tags: ['submissions'],
        summary:
          "A submission's video: uploads streamed (with ranges), approved external https links redirected. " +
          'Pending and rejected videos only for their author and admins: bearer token or the signed link in `videoSrc`.',
        params: submissionIdParamsSchema,
        querystring: videoLinkQuerySchema,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const submission = await findSubmission(db, id);
      if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
      const isPublic = isPublicStatus(submission.status);
      if (!isPublic) {
        const viewer = request.user;
        const allowed = viewer && (viewer.isAdmin || viewer.id === submission.userId);
        if (!allowed) {
          const link = videoAccess.check(id, request.query.expires, request.query.signature);
          // Without a valid link a pending video does not exist for the caller.
          if (link === 'invalid') throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
          if (link === 'expired') throw forbidden(SUBMISSION_MESSAGES.videoLinkExpired);
        }
      }
      const key = uploadedKey(submission.videoUrl);
      if (key) return stream(key, request.headers.range, reply, isPublic ? 'public' : 'private');
      // The server never fetches a client-given URL (no SSRF); it sends the player there, https
      // only, and only once an admin approved the link: no open redirect through a pending one.
      if (isPublic && submission.videoUrl.startsWith('https://'))
        return reply.redirect(submission.videoUrl, 302);
      throw notFound('This video is not available');
    },
  );
};
