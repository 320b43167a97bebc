/** The p-th percentile of sorted latencies (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Times GETs of `url`, one at a time 20 ms apart, while `going()` (and at most `limit` reads): what
 * a reader of the app meets while a flood runs. A read that fails or takes over `timeoutMs` counts
 * as a failure, timed as long as it took.
 */
export async function timeReads(
  url: string,
  going: () => boolean,
  { limit = Number.POSITIVE_INFINITY, timeoutMs = 10_000 }: { limit?: number; timeoutMs?: number } = {},
) {
  const latencies: number[] = [];
  let failures = 0;
  while (going() && latencies.length < limit) {
    const started = performance.now();
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).catch(() => null);
    latencies.push(performance.now() - started);
    if (res?.status !== 200) failures += 1;
    await res?.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { sorted: latencies.sort((a, b) => a - b), failures };
}
