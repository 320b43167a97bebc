import { measureLoad } from '../lib/http-load';
import type { Benchmark } from '../types';

/**
 * The two public reads of issue 6 every open page polls or loads: the major dare (polled every
 * 30 s by every client) and the leaderboard (several aggregate queries over all users).
 */
export const payoutReads: Benchmark = {
  name: 'payout-reads',
  description: 'GET /api/major-dare and GET /api/leaderboard under load',
  run: async (context) => [
    await measureLoad(context, { name: 'GET /api/major-dare', path: '/api/major-dare' }),
    await measureLoad(context, { name: 'GET /api/leaderboard', path: '/api/leaderboard' }),
  ],
};
