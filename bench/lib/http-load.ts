import autocannon from 'autocannon';
import type { BenchContext, LoadResult } from '../types';

export interface LoadOptions {
  name: string;
  path: string;
  headers?: Record<string, string>;
}

/** Runs autocannon against one path of the server, with the run's connections and duration. */
export async function measureLoad(context: BenchContext, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: new URL(options.path, context.baseUrl).toString(),
    connections: context.connections,
    duration: context.durationSeconds,
    headers: options.headers,
  });
  return {
    kind: 'load',
    name: options.name,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
    throughputBytesPerSecond: result.throughput.average,
    failures: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  };
}

const WARM_UP_SECONDS = 3;

/**
 * Two servers under the same load in alternating rounds (A then B, B then A, ...), so a change in
 * the machine's load during the run (other processes on a shared machine) weighs on both alike.
 * Both are warmed up first (WARM_UP_SECONDS). Each result covers its rounds together: requests/s over its whole time, the median round's p50
 * and p90, the worst round's p99. `context.durationSeconds` is each side's total.
 */
export async function measurePaired(
  context: BenchContext,
  a: PairedSide,
  b: PairedSide,
  rounds = 4,
): Promise<[PairedResult, PairedResult]> {
  const seconds = Math.max(1, Math.round(context.durationSeconds / rounds));
  // Not counted: the same load on each first, so both answer with optimised code. A server just
  // started spent ~60% more CPU per request in its first 3 s under load than later (V8 still
  // compiling its path); one second left the first read measured after a start a few points low.
  for (const side of [a, b]) {
    await measureLoad({ ...context, baseUrl: side.baseUrl, durationSeconds: WARM_UP_SECONDS }, side);
  }
  const runs: [LoadResult[], LoadResult[]] = [[], []];
  const cpuMs = [0, 0];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const options = side === 0 ? a : b;
      const before = options.cpuMs?.() ?? null;
      runs[side]!.push(
        await measureLoad({ ...context, baseUrl: options.baseUrl, durationSeconds: seconds }, options),
      );
      const after = options.cpuMs?.() ?? null;
      cpuMs[side] = before === null || after === null ? Number.NaN : cpuMs[side]! + (after - before);
    }
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const combine = (name: string, results: LoadResult[]): LoadResult => {
    const requests = results.reduce((sum, result) => sum + result.requests, 0);
    const time = seconds * results.length;
    return {
      kind: 'load',
      name,
      requestsPerSecond: requests / time,
      latencyMs: {
        p50: median(results.map((result) => result.latencyMs.p50)),
        p90: median(results.map((result) => result.latencyMs.p90)),
        p99: Math.max(...results.map((result) => result.latencyMs.p99)),
      },
      throughputBytesPerSecond:
        results.reduce((sum, result) => sum + result.throughputBytesPerSecond, 0) / results.length,
      failures: results.reduce((sum, result) => sum + result.failures, 0),
      requests,
    };
  };
  const withCpu = (side: 0 | 1, result: LoadResult): PairedResult => ({
    ...result,
    cpuMicrosPerRequest: Number.isNaN(cpuMs[side]!) ? null : (cpuMs[side]! * 1000) / result.requests,
  });
  return [withCpu(0, combine(a.name, runs[0])), withCpu(1, combine(b.name, runs[1]))];
}

export interface PairedSide extends LoadOptions {
  baseUrl: string;
  /** The server's CPU so far (ms), read around each round: its cost per request. */
  cpuMs?: () => number | null;
}

export interface PairedResult extends LoadResult {
  /** The server's CPU per answered request, in µs; null when its CPU could not be read. */
  cpuMicrosPerRequest: number | null;
}

/** What a browser sends, so the server answers as it would to a user (e.g. compressed). */
export const BROWSER_HEADERS = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br',
};
