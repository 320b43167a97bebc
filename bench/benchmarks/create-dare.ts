import { type HttpClient as Client, createDareOverHttp, newClient } from '../../e2e/fixtures/http-client';
import type { BenchContext, Benchmark } from '../types';

const USERS = 3;
const DARES_PER_USER = 15;
const WARMUP_DARES = 2;
const MEDIAN_BUDGET_MS = 100;
const P99_BUDGET_MS = 300;

/** The client's whole create-dare money path: escrow, build, sign, send, verify and record. */
async function createDare(context: BenchContext, client: Client, n: number): Promise<number> {
  const started = performance.now();
  await createDareOverHttp(context, client, { title: `Bench dare ${n}`, stake: '0.01' });
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * One dare after another, as users create them: the latency of the five calls a client makes,
 * on the embedded chain (PGlite, LiteSVM), per dare.
 */
export const createDareBench: Benchmark = {
  name: 'create-dare',
  description: `create-dare money path, ${USERS * DARES_PER_USER} dares over 5 HTTP calls each`,
  async run(context) {
    const clients = [];
    for (let i = 0; i < USERS; i++) clients.push(await newClient(context, i));
    for (let i = 0; i < WARMUP_DARES; i++) await createDare(context, clients[0]!, -i);
    const times: number[] = [];
    for (let round = 0; round < DARES_PER_USER; round++) {
      for (const client of clients) times.push(await createDare(context, client, times.length));
    }
    times.sort((a, b) => a - b);
    const detail = `${times.length} dares, min ${Math.round(times[0]!)} ms, max ${Math.round(times.at(-1)!)} ms`;
    return [
      {
        kind: 'measure',
        name: 'create dare (5 calls), median',
        value: percentile(times, 50),
        unit: 'ms',
        budget: MEDIAN_BUDGET_MS,
        detail,
      },
      {
        kind: 'measure',
        name: 'create dare (5 calls), p99',
        value: percentile(times, 99),
        unit: 'ms',
        budget: P99_BUDGET_MS,
      },
    ];
  },
};
