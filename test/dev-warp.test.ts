import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers/app';
import { chainNow } from './helpers/chain-clock';

/**
 * POST /api/dev/warp moves the embedded chain's clock, and exists only when a start asked for it
 * (EMBEDDED_CHAIN_TEST_CONTROLS=1): a normal start must not let anyone move time past a deadline
 * or a payout window (issue 24's wire contract; decision 031).
 */
describe('POST /api/dev/warp', () => {
  let normal: TestContext;
  let controlled: TestContext;
  beforeAll(async () => {
    normal = await createTestContext();
    controlled = await createTestContext({ EMBEDDED_CHAIN_TEST_CONTROLS: '1' });
  });
  afterAll(async () => {
    await normal?.close();
    await controlled?.close();
  });

  const warp = (ctx: TestContext, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/dev/warp', payload: payload as object });

  it('does not exist on a normal start, and the chain clock stays where it was', async () => {
    const before = await chainNow(normal);
    const res = await warp(normal, { seconds: 86_400 });
    expect(res.statusCode).toBe(404);
    const after = await chainNow(normal);
    expect(after.getTime() - before.getTime()).toBeLessThan(60_000);
  });

  it("moves the chain's Clock forward by the seconds asked with EMBEDDED_CHAIN_TEST_CONTROLS=1", async () => {
    const before = await chainNow(controlled);
    const res = await warp(controlled, { seconds: 3_600 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { slot: string; unixTimestamp: string };
    const after = await chainNow(controlled);
    expect(after.getTime() - before.getTime()).toBeGreaterThanOrEqual(3_600_000);
    expect(after.getTime() - before.getTime()).toBeLessThan(3_660_000);
    // The chain keeps following wall-clock time after the warp: a second or two may pass meanwhile.
    expect(after.getTime() / 1000 - Number(body.unixTimestamp)).toBeGreaterThanOrEqual(0);
    expect(after.getTime() / 1000 - Number(body.unixTimestamp)).toBeLessThan(5);
  });

  it('refuses a bad amount with a 400 and moves nothing', async () => {
    const before = await chainNow(controlled);
    for (const payload of [{ seconds: -5 }, { seconds: 0 }, { seconds: 'soon' }, {}]) {
      const res = await warp(controlled, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
    const after = await chainNow(controlled);
    expect(after.getTime() - before.getTime()).toBeLessThan(60_000);
  });
});
