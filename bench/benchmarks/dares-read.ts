import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../e2e/fixtures/server';
import { loadConfig } from '../../src/server/config';
import { openPglite } from '../../src/server/db/client';
import { createUser } from '../../src/server/db/factories';
import { dares } from '../../src/server/db/schema';
import { startCeiling } from '../lib/ceiling';
import { measureLoad } from '../lib/http-load';
import type { BenchContext, Benchmark, BenchResult } from '../types';

const DARES = 10_000;
const P99_BUDGET_MS = 50;
const CATEGORIES = ['creative', 'physical', 'social', 'skill', 'adventure'];
const DIFFICULTIES = ['easy', 'medium', 'hard', 'extreme'];

/** A data folder holding 10,000 dares (listing data only: no money moves in a read benchmark). */
async function seededDataDir(): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-bench-reads-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  if (!config.database.embedded) throw new Error('unexpected database config');
  const database = await openPglite({ dataDir: config.database.dataDir });
  await database.migrate();
  const creator = await createUser(database.db, { username: 'bench_creator' });
  const now = Date.now();
  for (let start = 0; start < DARES; start += 1000) {
    await database.db.insert(dares).values(
      Array.from({ length: 1000 }, (_, i) => ({
        creatorId: creator.id,
        title: `Bench dare ${start + i}`,
        description: 'A dare made for the read benchmark, long enough to look like a real one.',
        category: CATEGORIES[(start + i) % CATEGORIES.length]!,
        difficulty: DIFFICULTIES[(start + i) % DIFFICULTIES.length]!,
        stakeAmount: '0.1',
        totalPool: '0.25',
        deadline: new Date(now + ((start + i) % 30) * 86_400_000),
      })),
    );
  }
  await database.close();
  return dataDir;
}

/**
 * GET /api/dares (a page of 50 of 10,000) and GET /api/stats under load, each next to a bare
 * node:http process serving the same bytes from memory: the ceiling for this machine. Target: at
 * least half the ceiling's requests/s, p99 under 50 ms.
 */
export const daresRead: Benchmark = {
  name: 'dares-read',
  description: `GET /api/dares (50 of ${DARES.toLocaleString('en-US')}) and /api/stats vs a bare node:http ceiling`,
  async run(context) {
    const dataDir = await seededDataDir();
    const server = await startServer({ dataDir, env: { SEED_DEMO_DATA: 'false' }, logLevel: 'warn' });
    const results: BenchResult[] = [];
    try {
      for (const [name, url] of [
        ['GET /api/dares?limit=50', '/api/dares?filter=active&limit=50'],
        ['GET /api/stats', '/api/stats'],
      ] as const) {
        const sample = await fetch(new URL(url, server.baseUrl));
        const body = Buffer.from(await sample.arrayBuffer());
        const ceiling = await startCeiling(body, { 'content-type': 'application/json; charset=utf-8' });
        try {
          const ours = await measureLoad({ ...context, baseUrl: server.baseUrl } as BenchContext, {
            name,
            path: url,
          });
          const bare = await measureLoad({ ...context, baseUrl: ceiling.baseUrl } as BenchContext, {
            name: `${name} (bare node:http, same ${body.length} bytes)`,
            path: url,
          });
          const share = ours.requestsPerSecond / bare.requestsPerSecond;
          results.push(ours, bare, {
            kind: 'measure',
            name: `${name} p99`,
            value: ours.latencyMs.p99,
            unit: 'ms',
            budget: P99_BUDGET_MS,
            detail: `${Math.round(share * 100)}% of the ceiling's requests/s (target at least 50%)`,
          });
        } finally {
          await ceiling.close();
        }
      }
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return results;
  },
};
