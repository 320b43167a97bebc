import type { AppConfig } from '#server/config';
import { MemoryRateLimiter } from './memory';
import type { RateLimiter } from './port';
import type { LimiterLog } from './redis';
import { describeRedisUrl } from './redis-url';

/** The limiter the configuration names: Redis with REDIS_URL, shared by every instance; else this process's memory. */
export async function openRateLimiter(
  config: Pick<AppConfig, 'rateLimits'>,
  { now, log }: { now: () => number; log: LimiterLog },
): Promise<RateLimiter> {
  const { redis } = config.rateLimits;
  if (!redis) return new MemoryRateLimiter(now);
  // Loaded only when asked for: the Redis client is a large import a single instance never uses.
  const { createRedisRateLimiter } = await import('./redis');
  return createRedisRateLimiter({ url: redis.url, keyPrefix: redis.keyPrefix, now, log });
}

/** What the start-up log says about where the counters are. */
export function describeRateLimits(config: Pick<AppConfig, 'rateLimits'>): string {
  const { redis } = config.rateLimits;
  return redis
    ? `shared by every instance in Redis at ${describeRedisUrl(redis.url)}`
    : 'counted in this process (set REDIS_URL to share them between instances)';
}
