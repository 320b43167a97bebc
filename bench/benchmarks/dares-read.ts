import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CATEGORIES, DIFFICULTIES } from '#contract/limits';
import { loadConfig } from '#server/config';
import { type Database, openPglite, openPostgres } from '#server/db/client';
import { createUser } from '#server/db/factories';
import { dares } from '#server/db/schema';
import { startCeiling } from '../lib/ceiling';
import { measurePaired, type PairedResult } from '../lib/http-load';
import { npmStart } from '../lib/npm-start';
import { processCpuMs } from '../lib/proc-cpu';
import type { BenchContext, Benchmark, BenchResult } from '../types';

const DARES = 10_000;
const P99_BUDGET_MS = 50;

/** 10,000 dares (listing data only: no money moves in a read benchmark). */
async function seed(database: Database): Promise<void> {
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
}

/** BENCH_POSTGRES_URL (default the CI server), when it answers: the same run on PostgreSQL. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

async function postgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `darepool_bench_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * The reads the web app sends while a page is open (Home's and Community Dares' lists, the stats
 * strip) and the share of the bare ceiling's requests/s each must reach: 80% for the dare list
 * (38 KB answers), 50% for the 98-byte stats, where the ceiling's cost per request is next to
 * nothing and any framework's own cost decides.
 */
const READS = [
  ['GET /api/dares?filter=active', '/api/dares?filter=active', 80],
  ['GET /api/dares?filter=all', '/api/dares?filter=all', 80],
  ['GET /api/dares?limit=50', '/api/dares?limit=50', 80],
  ['GET /api/stats', '/api/stats', 50],
] as const;

/**
 * The dare list and the stats strip under load, each next to a bare node:http process serving the
 * same bytes from memory: the ceiling for this machine, measured in alternating rounds with it so
 * a shared machine's changing load weighs on both alike. The server runs as users run it: `npm
 * start` (the compiled src/server/start.ts; NODE_ENV and LOG_LEVEL as the shell leaves them:
 * production, info),
 * with the security headers on and its log going to a file, as under a process manager. Targets:
 * the shares above, p99 under 50 ms. On PGlite, and on PostgreSQL when it
 * answers.
 */
export const daresRead: Benchmark = {
  name: 'dares-read',
  description: `GET /api/dares (filters the web app sends; 50 of ${DARES.toLocaleString('en-US')}) and /api/stats on npm start vs a bare node:http ceiling`,
  // It starts its own servers, with `npm start`.
  inProcess: true,
  async run(context) {
    console.log(
      `  server: npm start, NODE_ENV=${process.env.NODE_ENV ?? '(unset: production)'}, LOG_LEVEL=${process.env.LOG_LEVEL ?? '(unset: info)'}, log to a file`,
    );
    const results: BenchResult[] = [];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-bench-reads-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      if (!config.database.embedded) throw new Error('unexpected database config');
      await seed(await openPglite({ dataDir: config.database.dataDir }));
      results.push(...(await measureReads(context, 'PGlite', { dataDir, env: { SEED_DEMO_DATA: 'false' } })));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }

    const postgres = await postgresDatabase();
    if (postgres) {
      const pgDataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-bench-reads-pg-'));
      try {
        await seed(await openPostgres(postgres.url, 2));
        results.push(
          ...(await measureReads(context, 'PostgreSQL', {
            dataDir: pgDataDir,
            env: { SEED_DEMO_DATA: 'false', DATABASE_URL: postgres.url },
          })),
        );
      } finally {
        rmSync(pgDataDir, { recursive: true, force: true });
        await postgres.drop();
      }
    }
    return results;
  },
};

/**
 * CPU per request of the server and of the ceiling: on a shared, busy machine the requests/s of
 * both mostly measure the wait for a core, the CPU each answer costs does not.
 */
function cpuDetail(ours: PairedResult, bare: PairedResult): string {
  if (ours.cpuMicrosPerRequest === null || bare.cpuMicrosPerRequest === null) return '';
  const share = Math.round((bare.cpuMicrosPerRequest / ours.cpuMicrosPerRequest) * 100);
  return `CPU/request ${Math.round(ours.cpuMicrosPerRequest)} µs vs ${Math.round(bare.cpuMicrosPerRequest)} µs (${share}%), `;
}

async function measureReads(
  context: BenchContext,
  label: string,
  options: { dataDir: string; env: Record<string, string> },
): Promise<BenchResult[]> {
  const logFile = path.join(options.dataDir, 'server.log');
  const server = await npmStart({ ...options, logFile });
  const results: BenchResult[] = [];
  try {
    for (const [name, url, target] of READS) {
      const sample = await fetch(new URL(url, server.baseUrl));
      if (!sample.ok) throw new Error(`${url} answered ${sample.status}`);
      const body = Buffer.from(await sample.arrayBuffer());
      const ceiling = await startCeiling(body, { 'content-type': 'application/json; charset=utf-8' });
      try {
        const linesBefore = server.logLines();
        const [ours, bare] = await measurePaired(
          context,
          { name: `${name} [${label}]`, path: url, baseUrl: server.baseUrl, cpuMs: server.usedCpuMs },
          {
            name: `  bare node:http, same ${body.length} bytes`,
            path: url,
            baseUrl: ceiling.baseUrl,
            cpuMs: () => processCpuMs(ceiling.pid),
          },
        );
        const logLines = server.logLines() - linesBefore;
        const share = Math.round((ours.requestsPerSecond / bare.requestsPerSecond) * 100);
        results.push(
          ours,
          bare,
          {
            kind: 'measure',
            name: `${name} [${label}] share of the ceiling's requests/s`,
            value: share,
            unit: '%',
            budget: target,
            atLeast: true,
            detail: `${cpuDetail(ours, bare)}${logLines.toLocaleString('en-US')} log lines for ${ours.requests.toLocaleString('en-US')} requests, load average ${os.loadavg()[0]!.toFixed(2)}`,
          },
          {
            kind: 'measure',
            name: `${name} [${label}] p99`,
            value: ours.latencyMs.p99,
            unit: 'ms',
            budget: P99_BUDGET_MS,
          },
        );
      } finally {
        await ceiling.close();
      }
    }
  } finally {
    await server.stop();
  }
  return results;
}
