import { describe, expect, it } from 'vitest';
import type { AppError } from '#server/errors';
import { closedPort } from '#test/support/rate-limit/test-redis';
import type { RateLimit } from './port';
import { createRedisRateLimiter } from './redis';

describe('a Redis limiter whose Redis is not there', () => {
  it('starts, refuses sign-in and payments with 503, counts the rest here, and logs it once', async () => {
    const lines: string[] = [];
    const limiter = await createRedisRateLimiter({
      url: `redis://127.0.0.1:${await closedPort()}`,
      keyPrefix: 'darepool-test:',
      now: Date.now,
      log: { info: (message) => lines.push(message), error: (message) => lines.push(message) },
    });
    try {
      expect(limiter.state()).toEqual({ store: 'redis', ok: false });
      const signIn: RateLimit = { limit: 100, windowMs: 60_000, ifStoreDown: 'refuse' };
      const refused = await limiter.hitAll([{ key: 'login-ip:1.2.3.4', ...signIn }]).then(
        () => null,
        (error: AppError) => error,
      );
      expect(refused).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        extra: { retryAfter: 5 },
        headers: { 'retry-after': '5' },
      });
      expect(refused?.message).toMatch(/cannot reach its rate-limit service/);
      const reads: RateLimit = { limit: 1, windowMs: 60_000, ifStoreDown: 'count-locally' };
      expect(await limiter.hit('balance:1.2.3.4', reads)).toEqual({ allowed: true });
      expect(await limiter.hit('balance:1.2.3.4', reads)).toEqual({ allowed: false, retryAfterSeconds: 60 });
      await limiter.release('balance:1.2.3.4');
      expect(await limiter.hit('balance:1.2.3.4', reads)).toEqual({ allowed: true });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/does not answer/);
    } finally {
      await limiter.close();
    }
  });
});
