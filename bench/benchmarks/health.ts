import { measureLoad } from '../lib/http-load';
import type { Benchmark } from '../types';

/** The endpoint load balancers and uptime checks poll: it touches the database and the chain. */
export const health: Benchmark = {
  name: 'health',
  description: 'GET /api/health under load',
  run: async (context) => [await measureLoad(context, { name: 'GET /api/health', path: '/api/health' })],
};
