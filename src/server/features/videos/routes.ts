import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { submissionIdParamsSchema, uploadVideoResponseSchema } from '#contract/submissions';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { Playback, VideosService } from './service';

/** The signed link's parameters (see submissions/video-access.ts); absent for public videos. */
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
function parseRange(header: string, size: number): { start: number; end: number } | null {
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

export const videoRoutes: FastifyPluginAsyncZod<{ videos: VideosService }> = async (app, { videos }) => {
  /** Plays a video: stored ones with range support (players seek with 206 Partial Content). */
  async function play(playback: Playback, rangeHeader: string | undefined, reply: FastifyReply) {
    if (playback.kind === 'redirect') return reply.redirect(playback.url, 302);
    const object = await videos.open(playback.key);
    reply.header('accept-ranges', 'bytes').header('content-type', object.contentType);
    // The bytes never change, but who may see them does (moderation): shared caches keep a public
    // video briefly, and never a pending one.
    reply.header(
      'cache-control',
      playback.visibility === 'public' ? 'public, max-age=600' : 'private, no-store',
    );
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
      return reply.send(object.read(range));
    }
    reply.header('content-length', object.size);
    return reply.send(object.read());
  }

  app.post(
    '/api/upload-video',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary: 'Upload a video (multipart: video, dareId): MP4, WebM or OGG, at most 10 MB',
        consumes: ['multipart/form-data'],
        response: {
          200: uploadVideoResponseSchema,
          ...errorResponses(400, 401, 404, 408, 409, 413, 415, 429, 507),
        },
      },
    },
    async (request, reply) => ({ url: await videos.upload(userOf(request), request, reply) }),
  );

  app.get(
    '/uploads/videos/:key',
    { schema: { hide: true, params: z.object({ key: z.string() }) } },
    async (request, reply) =>
      play(await videos.publicUpload(request.params.key), request.headers.range, reply),
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
    async (request, reply) =>
      play(
        await videos.playback(request.params.id, request.user, request.query),
        request.headers.range,
        reply,
      ),
  );
};
