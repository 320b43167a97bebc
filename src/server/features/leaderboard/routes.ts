import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { leaderboardSchema } from '#contract/leaderboard';
import type { Db } from '#server/db/client';
import { leaderboard } from './repo';

export const leaderboardRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/leaderboard',
    {
      schema: {
        tags: ['leaderboard'],
        summary: 'Top 10 earners, totals, and the three categories each by its own measure',
        response: { 200: leaderboardSchema },
      },
    },
    // Cached like the dare list: recomputed after any write, at most 2.5 s old.
    async (request, reply) =>
      app.readCache.serve(request, reply, async () => ({ body: await leaderboard(db) })),
  );
};
