import { describe, expect, it } from 'vitest';
import type { LimitRule, RateLimit, RateLimiter } from '#server/rate-limit/port';

const rule = (limit: number, windowMs: number): RateLimit => ({ limit, windowMs, ifStoreDown: 'refuse' });
const keyed = (key: string, limit: number, windowMs: number): LimitRule => ({
  key,
  ...rule(limit, windowMs),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What every RateLimiter adapter answers, on real time: `open` gives each test a limiter whose
 * keys no other test sees. The same answers from both adapters are what keeps REDIS_URL a
 * deployment choice, not a behaviour change.
 */
export function describeRateLimiter(name: string, open: () => Promise<RateLimiter>) {
  describe(`${name}: the rate limiter`, () => {
    it('allows `limit` events per window and refuses the next with the seconds left, uncounted', async () => {
      const limiter = await open();
      const minute = rule(3, 60_000);
      for (let i = 0; i < 3; i++) expect(await limiter.hit('k', minute)).toEqual({ allowed: true });
      expect(await limiter.hit('k', minute)).toEqual({ allowed: false, retryAfterSeconds: 60 });
      expect(await limiter.hit('k', minute)).toEqual({ allowed: false, retryAfterSeconds: 60 });
      // Another key has its own window.
      expect(await limiter.hit('other', minute)).toEqual({ allowed: true });
    });

    it('opens a new window once the first one has passed', async () => {
      const limiter = await open();
      const short = rule(1, 300);
      expect(await limiter.hit('k', short)).toEqual({ allowed: true });
      expect(await limiter.hit('k', short)).toEqual({ allowed: false, retryAfterSeconds: 1 });
      await sleep(350);
      expect(await limiter.hit('k', short)).toEqual({ allowed: true });
    });

    it('counts every rule of hitAll, or none when one is used up, naming the first such one', async () => {
      const limiter = await open();
      const rules = [keyed('pair', 2, 60_000), keyed('account', 3, 60_000), keyed('ip', 3, 60_000)];
      expect(await limiter.hitAll(rules)).toEqual({ allowed: true });
      expect(await limiter.hitAll(rules)).toEqual({ allowed: true });
      expect(await limiter.hitAll(rules)).toEqual({ allowed: false, key: 'pair', retryAfterSeconds: 60 });
      // The refused call counted nothing: the account still has one event left.
      expect(await limiter.hit('account', rule(3, 60_000))).toEqual({ allowed: true });
      expect(await limiter.hit('account', rule(3, 60_000))).toMatchObject({ allowed: false });
    });

    it('gives back one event of a live window, never below zero', async () => {
      const limiter = await open();
      const two = rule(2, 60_000);
      await limiter.release('k');
      expect(await limiter.hit('k', two)).toEqual({ allowed: true });
      expect(await limiter.hit('k', two)).toEqual({ allowed: true });
      await limiter.release('k');
      expect(await limiter.hit('k', two)).toEqual({ allowed: true });
      expect(await limiter.hit('k', two)).toMatchObject({ allowed: false });
    });

    it('lets exactly `limit` of many concurrent events through', async () => {
      const limiter = await open();
      const verdicts = await Promise.all(
        Array.from({ length: 40 }, () => limiter.hitAll([keyed('burst', 10, 60_000)])),
      );
      expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(10);
    });

    it('holds at most `limit` slots per key; a freed or expired slot can be taken again', async () => {
      const limiter = await open();
      const two = { limit: 2, leaseMs: 60_000 };
      expect(await limiter.takeSlot('addr', 'a', two)).toBe(true);
      expect(await limiter.takeSlot('addr', 'b', two)).toBe(true);
      expect(await limiter.takeSlot('addr', 'c', two)).toBe(false);
      // A holder asking again keeps its one slot; another key has its own.
      expect(await limiter.takeSlot('addr', 'a', two)).toBe(true);
      expect(await limiter.takeSlot('other', 'c', two)).toBe(true);
      await limiter.freeSlot('addr', 'a');
      expect(await limiter.takeSlot('addr', 'c', two)).toBe(true);

      const short = { limit: 1, leaseMs: 300 };
      expect(await limiter.takeSlot('lease', 'a', short)).toBe(true);
      await sleep(200);
      await limiter.renewSlots('lease', ['a'], short);
      await sleep(200);
      // Renewed: still held 400 ms after it was taken.
      expect(await limiter.takeSlot('lease', 'b', short)).toBe(false);
      await sleep(350);
      expect(await limiter.takeSlot('lease', 'b', short)).toBe(true);
    });

    it('gives exactly `limit` of many concurrent takers a slot', async () => {
      const limiter = await open();
      const taken = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          limiter.takeSlot('crowd', `h${i}`, { limit: 10, leaseMs: 60_000 }),
        ),
      );
      expect(taken.filter(Boolean)).toHaveLength(10);
    });
  });
}
