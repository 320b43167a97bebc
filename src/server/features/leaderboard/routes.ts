import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Leaderboard, leaderboardSchema } from '../../../contract/leaderboard';
import type { Db } from '../../db/client';
import { leaderboard } from './repo';

export const leaderboardRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Single flight: requests arriving while the aggregates are being computed share that result
  // instead of queueing five more queries each (measured: bench payout-reads).
  let inFlight: Promise<Leaderboard> | null = null;
  const read = () => {
    inFlight ??= leaderboard(db).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  app.get(
    '/api/leaderboard',
    {
      schema: {
        tags: ['leaderboard'],
        summary: 'Top 10 earners, totals, and the three categories each by its own measure',
        response: { 200: leaderboardSchema },
      },
    },
    async () => read(),
  );
};
