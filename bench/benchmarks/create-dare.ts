import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '#test/helpers/read-latency';
import {
  type HttpClient as Client,
  CREATE_DARE_STEPS,
  type CreateDareStep,
  createDareOverHttp,
  newClient,
  type ServerAddress,
} from '../../e2e/fixtures/http-client';
import { npmStart } from '../lib/npm-start';
import type { Benchmark, BenchResult } from '../types';

// Five users, so that no one reaches the per-user limit on escrow reservations (20 a minute).
const USERS = 5;
const DARES_PER_USER = 9;
/** Rounds before the measured ones, so a server that has been up a while is measured (JIT warm). */
const WARMUP_ROUNDS = 2;
const MEDIAN_BUDGET_MS = 40;
const P99_BUDGET_MS = 150;

/** The client's whole create-dare money path: escrow, build, sign, send, verify and record. */
async function createDare(
  context: ServerAddress,
  client: Client,
  n: number,
  steps?: Map<CreateDareStep, number[]>,
): Promise<number> {
  const started = performance.now();
  await createDareOverHttp(context, client, { title: `Bench dare ${n}`, stake: '0.01' }, (step, ms) =>
    steps?.get(step)?.push(ms),
  );
  return performance.now() - started;
}

/** Each step's median and its share of the steps' summed medians: "create-transaction 9.1 ms (28%)". */
function breakdown(steps: Map<CreateDareStep, number[]>): string {
  const medians = CREATE_DARE_STEPS.map((step) => {
    const sorted = [...steps.get(step)!].sort((a, b) => a - b);
    return { step, ms: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  const total = medians.reduce((sum, { ms }) => sum + ms, 0);
  return medians
    .map(
      ({ step, ms, p99 }) =>
        `${step} ${ms.toFixed(1)} ms (${Math.round((ms / total) * 100)}%, p99 ${Math.round(p99)})`,
    )
    .join(', ');
}

/**
 * One dare after another, as users create them: the latency of the five calls a client makes,
 * per dare, against `npm start` as users run it (embedded PGlite and LiteSVM, demo data, its log).
 */
export const createDareBench: Benchmark = {
  name: 'create-dare',
  description: `create-dare money path, ${USERS * DARES_PER_USER} dares over 5 HTTP calls each`,
  inProcess: true,
  async run() {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-bench-create-'));
    const server = await npmStart({ dataDir, logFile: path.join(dataDir, 'server.log') });
    try {
      return await measure(server);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

async function measure(context: ServerAddress): Promise<BenchResult[]> {
  const clients = [];
  for (let i = 0; i < USERS; i++) clients.push(await newClient(context, i));
  for (let round = 0; round < WARMUP_ROUNDS; round++) {
    for (const [i, client] of clients.entries()) await createDare(context, client, -(round * USERS + i));
  }
  const times: number[] = [];
  const steps = new Map<CreateDareStep, number[]>(CREATE_DARE_STEPS.map((step) => [step, []]));
  for (let round = 0; round < DARES_PER_USER; round++) {
    for (const client of clients) times.push(await createDare(context, client, times.length, steps));
  }
  times.sort((a, b) => a - b);
  const detail = `${times.length} dares, min ${Math.round(times[0]!)} ms, max ${Math.round(times.at(-1)!)} ms; each step's median (share): ${breakdown(steps)}`;
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
}
