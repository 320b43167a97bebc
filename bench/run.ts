/**
 * `npm run bench [-- name...]`: starts the real server on a fresh data folder and runs the named
 * benchmarks (all by default). BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS
 * (default 50) shape the load tests. Exits 1 when a measure is over its budget or a load test
 * saw failed requests, so a regression is not just a number scrolling by. BENCH_VIDEO_STORAGE=s3
 * stores the server's videos in an S3-protocol server (s3rver) started for the run.
 */
import os from 'node:os';
import { startTestS3Server } from '#test/support/storage/s3-server';
import { startServer } from '../e2e/fixtures/server';
import { ensureWebBuilt } from '../scripts/web-build';
import { BENCHMARKS } from './benchmarks';
import { formatReport, isOverBudget, machineLoad } from './lib/report';
import type { BenchResult } from './types';

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`Invalid ${name}: expected a positive number (got ${JSON.stringify(raw)})`);
    process.exit(1);
  }
  return value;
}

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}. Known: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}`,
  );
  process.exit(1);
}
const selected = requested.length
  ? BENCHMARKS.filter((benchmark) => requested.includes(benchmark.name))
  : BENCHMARKS;
const durationSeconds = positiveNumber('BENCH_DURATION', 10);
const connections = Math.round(positiveNumber('BENCH_CONNECTIONS', 50));

const needsServer = selected.some((benchmark) => !benchmark.inProcess);
if (needsServer) ensureWebBuilt();
const s3 = needsServer && process.env.BENCH_VIDEO_STORAGE === 's3' ? await startTestS3Server() : null;
// Behind one proxy, as deployed: a bench may speak from many client addresses (X-Forwarded-For).
const server = needsServer
  ? await startServer({ logLevel: 'warn', env: { TRUST_PROXY: '1', ...(s3?.env('bench/') ?? {}) } })
  : null;
console.log(
  `DarePool bench: ${selected.map((benchmark) => benchmark.name).join(', ')} | ${durationSeconds} s x ${connections} connections | ` +
    `${os.cpus().length} CPU(s), Node ${process.version}, server ${server?.baseUrl ?? 'not started'}${s3 ? ', videos on s3rver' : ''}`,
);

const results: BenchResult[] = [];
let failed = false;
try {
  for (const benchmark of selected) {
    console.log(
      `- ${benchmark.name}: ${benchmark.description} (load average ${machineLoad().average1.toFixed(2)})`,
    );
    const measured = await benchmark.run({
      baseUrl: server?.baseUrl ?? '',
      serverPid: server?.pid ?? 0,
      durationSeconds,
      connections,
    });
    // The one-minute average as the benchmark ends: the load its figures were measured under.
    const load = machineLoad();
    for (const result of measured) result.load ??= load;
    results.push(...measured);
  }
} catch (error) {
  failed = true;
  console.error(`Benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await server?.stop();
  await s3?.close();
}

console.log(`\n${formatReport(results)}`);
const overBudget = results.filter((result) => result.kind === 'measure' && isOverBudget(result));
const withFailures = results.filter((result) => result.kind === 'load' && result.failures > 0);
for (const result of overBudget) console.error(`over budget: ${result.name}`);
for (const result of withFailures) console.error(`failed requests: ${result.name}`);
process.exit(failed || overBudget.length > 0 || withFailures.length > 0 ? 1 : 0);
