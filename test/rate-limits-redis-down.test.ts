import { describe, expect, it } from 'vitest';
import { closedPort } from '#test/support/rate-limit/test-redis';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet } from './helpers/wallet';

/**
 * REDIS_URL names a Redis that is not there (a closed port): the app still starts; sign-in and
 * payments answer 503 with Retry-After, reads go on, and the health check says where limits stand.
 */
const { http } = setupApiSuite({
  env: async () => ({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` }),
});

describe('rate limits while Redis does not answer', () => {
  it('refuses sign-in and payments with 503 and a clear error, Retry-After included', async () => {
    const wallet = await createTestWallet();
    for (const [url, payload] of [
      ['/api/auth/login', { username: 'alice', password: 'not-her-password' }],
      ['/api/auth/challenge', { walletAddress: wallet.address }],
      ['/api/dev/airdrop', { walletAddress: wallet.address, amount: '1' }],
    ] as const) {
      const res = await http.post(url, payload);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        error: expect.stringMatching(/cannot reach its rate-limit service/),
      });
    }
  });

  it('keeps reads open', async () => {
    const wallet = await createTestWallet();
    const balance = await http.post('/api/check-balance', { walletAddress: wallet.address });
    expect(balance.statusCode, balance.body).toBe(200);
    expect((await http.get('/api/dares')).statusCode).toBe(200);
  });

  it('reports the rate-limit store in the health check without failing it', async () => {
    const res = await http.get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', rateLimits: { store: 'redis', ok: false } });
  });
});
