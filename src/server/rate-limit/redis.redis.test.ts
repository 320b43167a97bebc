import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '#server/errors';
import { describeRateLimiter } from '#test/support/rate-limit/limiter-contract';
import { startTcpProxy, testKeyPrefix, testRedisUrl } from '#test/support/rate-limit/test-redis';
import type { RateLimit, RateLimiter } from './port';
import { createRedisRateLimiter, type LimiterLog } from './redis';

let url: string;
const limiters: RateLimiter[] = [];
beforeAll(async () => {
  url = await testRedisUrl();
});
afterAll(async () => {
  for (const limiter of limiters) await limiter.close();
});

const silent: LimiterLog = { info() {}, error() {} };

async function limiter(options: { url?: string; keyPrefix?: string; log?: LimiterLog } = {}) {
  const opened = await createRedisRateLimiter({
    url: options.url ?? url,
    keyPrefix: options.keyPrefix ?? testKeyPrefix(),
    now: Date.now,
    log: options.log ?? silent,
    commandTimeoutMs: 500,
  });
  limiters.push(opened);
  return opened;
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeRateLimiter('Redis', () => limiter());

describe('Redis rate limits across instances', () => {
  it('counts once for two instances on one Redis', async () => {
    const keyPrefix = testKeyPrefix();
    const [a, b] = [await limiter({ keyPrefix }), await limiter({ keyPrefix })];
    const four: RateLimit = { limit: 4, windowMs: 60_000, ifStoreDown: 'refuse' };
    expect(await a.hit('login', four)).toEqual({ allowed: true });
    expect(await b.hit('login', four)).toEqual({ allowed: true });
    expect(await a.hit('login', four)).toEqual({ allowed: true });
    expect(await b.hit('login', four)).toEqual({ allowed: true });
    expect(await a.hit('login', four)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await b.hit('login', four)).toEqual({ allowed: false, retryAfterSeconds: 60 });

    const rules = [{ key: 'burst', limit: 10, windowMs: 60_000, ifStoreDown: 'refuse' as const }];
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).hitAll(rules)),
    );
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
  });

  it('refuses sign-in and payments and counts the rest here while Redis is away, saying so once each way', async () => {
    const proxy = await startTcpProxy(url);
    const lines: string[] = [];
    const log: LimiterLog = {
      info: (message) => lines.push(`info: ${message}`),
      error: (message) => lines.push(`error: ${message}`),
    };
    const shared = await limiter({ url: proxy.url, log });
    const signIn: RateLimit = { limit: 5, windowMs: 60_000, ifStoreDown: 'refuse' };
    const reads: RateLimit = { limit: 2, windowMs: 60_000, ifStoreDown: 'count-locally' };
    expect(await shared.hit('sign-in', signIn)).toEqual({ allowed: true });
    expect(shared.state()).toEqual({ store: 'redis', ok: true });

    await proxy.stop();
    await until(() => !shared.state().ok, 'the limiter notices Redis is gone');
    for (let i = 0; i < 3; i++) {
      const refused = await shared.hit('sign-in', signIn).then(
        () => null,
        (error: AppError) => error,
      );
      expect(refused).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        headers: { 'retry-after': '5' },
      });
    }
    expect(await shared.hit('reads', reads)).toEqual({ allowed: true });
    expect(await shared.hit('reads', reads)).toEqual({ allowed: true });
    expect(await shared.hit('reads', reads)).toMatchObject({ allowed: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: Redis at redis:\/\/127\.0\.0\.1:\d+ does not answer .*sign-in and payments answer 503/,
    );

    await proxy.resume();
    await until(() => shared.state().ok, 'the limiter reconnects');
    // Counted in Redis again: the one sign-in counted before the outage is still there.
    for (let i = 0; i < 4; i++) expect(await shared.hit('sign-in', signIn)).toEqual({ allowed: true });
    expect(await shared.hit('sign-in', signIn)).toMatchObject({ allowed: false });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^info: Redis at .* answers again/);
    await proxy.close();
  });
});
