import type { AppConfig } from '../config';
import { MemoryRateLimiter } from './memory';
import type { RateLimiter } from './port';
import { createRedisRateLimiter, describeRedisUrl, type LimiterLog } from './redis';

/** The limiter the configuration names: Redis with REDIS_URL, shared by every instance; else this process's memory. */
export function openRateLimiter(
  config: Pick<AppConfig, 'rateLimits'>,
  { now, log }: { now: () => number; log: LimiterLog },
): Promise<RateLimiter> {
  const { redis } = config.rateLimits;
  if (!redis) return Promise.resolve(new MemoryRateLimiter(now));
  return createRedisRateLimiter({ url: redis.url, keyPrefix: redis.keyPrefix, now, log });
}

/** What the start-up log says about where the counters are. */
export function describeRateLimits(config: Pick<AppConfig, 'rateLimits'>): string {
  const { redis } = config.rateLimits;
  return redis
    ? `shared by every instance in Redis at ${describeRedisUrl(redis.url)}`
    : 'counted in this process (set REDIS_URL to share them between instances)';
}
