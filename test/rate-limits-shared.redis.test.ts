import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKeyPrefix, testRedisUrl } from '#server/rate-limit/testing/test-redis';
import { createTestContext, type TestContext } from './helpers/app';

/**
 * Two instances (each a whole app) counting in one Redis, as behind a load balancer: a guesser
 * spreading attempts over both is counted once. Runs when TEST_REDIS_URL names a Redis.
 */
let a: TestContext;
let b: TestContext;
beforeAll(async () => {
  const env = {
    REDIS_URL: await testRedisUrl(),
    REDIS_KEY_PREFIX: testKeyPrefix(),
    RATE_LIMIT_FAILED_LOGINS: '4',
  };
  a = await createTestContext(env);
  b = await createTestContext(env);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const guess = (ctx: TestContext) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: 'victim', password: 'wrong-guess-123' },
  });

describe('rate limits shared in Redis', () => {
  it('counts failed logins split over two instances together', async () => {
    for (const ctx of [a, b, a, b]) expect((await guess(ctx)).statusCode).toBe(401);
    for (const ctx of [a, b]) {
      const refused = await guess(ctx);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(refused.json().error).toMatch(/Too many failed logins for this account/);
    }
  });

  it('says in the health check that Redis counts', async () => {
    expect((await b.app.inject('/api/health')).json().rateLimits).toEqual({ store: 'redis', ok: true });
  });
});
