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

/** What a browser sends, so the server answers as it would to a user (e.g. compressed). */
export const BROWSER_HEADERS = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br',
};
