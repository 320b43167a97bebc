import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKeyPrefix, testRedisUrl } from '#test/support/rate-limit/test-redis';
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

const guess = (ctx: TestContext, username = 'victim', remoteAddress = '127.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'wrong-guess-123' },
    remoteAddress,
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

  it("counts an account's failures from many addresses, and then its backoff, once over both instances", async () => {
    // Ten addresses use up their own locks (4 each) and the account-wide count (40), half on each instance.
    for (let address = 0; address < 10; address++)
      for (const ctx of [a, b, a, b])
        expect((await guess(ctx, 'spread-victim', `10.30.${address}.1`)).statusCode).toBe(401);
    // The backoff's 2 attempts a minute are shared too: each instance alone would allow two more.
    const statuses = [];
    for (const [i, ctx] of [a, b, a, b].entries())
      statuses.push((await guess(ctx, 'spread-victim', `10.31.${i}.1`)).statusCode);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });

  it('says in the health check that Redis counts', async () => {
    expect((await b.app.inject('/api/health')).json().rateLimits).toEqual({ store: 'redis', ok: true });
  });
});
