import { describe, expect, it } from 'vitest';
import { limit } from './limit';
import { MemoryRateLimiter } from './memory';

describe('limit()', () => {
  it("lets `limit` events of a key through, then answers 429 with Retry-After in the caller's words", async () => {
    const limiter = new MemoryRateLimiter();
    const rule = { limit: 2, windowMs: 60_000, ifStoreDown: 'count-locally' } as const;
    await limit(limiter, 'send:1', rule, 'Too many tries; wait a minute');
    await limit(limiter, 'send:1', rule, 'Too many tries; wait a minute');
    const refused = await limit(limiter, 'send:1', rule, 'Too many tries; wait a minute').catch((e) => e);
    expect(refused).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many tries; wait a minute',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.extra.retryAfter).toBe(Number(refused.headers['retry-after']));
    // Another key counts on its own.
    await expect(limit(limiter, 'send:2', rule, 'Too many tries; wait a minute')).resolves.toBeUndefined();
    await limiter.close();
  });
});
