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
import { badRequest, notFound } from '../../errors';
import { requireUser } from '../../plugins/authenticate';
import type { RateLimiter } from '../../plugins/rate-limit';
import { tooManyRequests } from '../../plugins/rate-limit';
import type { StoragePort } from '../../storage/port';
import { findSubmission } from '../submissions/repo';
import { type SubmissionsService, uploadedKey } from '../submissions/service';
import type { VideoQuota } from './quota';
import { receiveUpload } from './receive-upload';

const UPLOADS_PER_10_MIN = 20;

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
  bodyTimeoutMs: number;
}> = async (app, { db, storage, submissions, limiter, quota, bodyTimeoutMs }) => {
  /** Streams a stored video with range support: players seek with 206 Partial Content. */
  async function stream(key: string, rangeHeader: string | undefined, reply: FastifyReply) {
    const object = await storage.stat(key);
    if (!object) throw notFound('Video not found');
    reply.header('accept-ranges', 'bytes').header('content-type', object.contentType);
    // Uploaded files never change: their name is random and never reused.
    reply.header('cache-control', 'public, max-age=31536000, immutable');
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

  app.get(
    '/uploads/videos/:key',
    { schema: { hide: true, params: z.object({ key: z.string() }) } },
    async (request, reply) => stream(request.params.key, request.headers.range, reply),
  );

  app.get(
    '/api/video-proxy/:id',
    {
      schema: {
        tags: ['submissions'],
        summary:
          "A submission's video: uploaded files streamed (with ranges), external https URLs redirected",
        params: submissionIdParamsSchema,
      },
    },
    async (request, reply) => {
      const submission = await findSubmission(db, request.params.id);
      if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
      const key = uploadedKey(submission.videoUrl);
      if (key) return stream(key, request.headers.range, reply);
      // The server never fetches a client-given URL (no SSRF); it sends the player there, https only.
      if (submission.videoUrl.startsWith('https://')) return reply.redirect(submission.videoUrl, 302);
      throw notFound('This video is not available over https');
    },
  );
};
