import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statsQuerySchema, statsSchema } from '#contract/stats';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { errorResponses } from '#server/errors';
import { readStats } from './repo';

export const statsRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/api/stats',
    {
      schema: {
        tags: ['dares'],
        summary: 'The Home stats strip, computed from the database; major=false counts community dares only',
        querystring: statsQuerySchema,
        response: { 200: statsSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) =>
      app.readCache.serve(request, reply, async () => ({
        body: await readStats(db, clock(), request.query),
      })),
  );
};
