import { describe, expect, it } from 'vitest';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  actors: { reader },
} = setupApiSuite({ actors: { reader: { sol: '0' } } });

/** One past PostgreSQL's `integer`, and a number far beyond it. */
const TOO_LARGE = ['2147483648', '99999999999999999999'];

describe('ids that cannot be ids', () => {
  const routes = (id: string) => [
    `/api/dares/${id}`,
    `/api/submissions/${id}`,
    `/api/approved-submissions/${id}`,
    `/api/video-proxy/${id}`,
    `/api/user/${id}/votes/dare/1`,
    `/api/user/1/votes/dare/${id}`,
    `/api/chat-messages?before=${id}`,
    `/api/chat-messages?dareId=${id}`,
    `/api/dares?cursor=${id}`,
  ];

  for (const id of TOO_LARGE) {
    it(`answers 400 to ${id} on every id route, with an error body`, async () => {
      for (const url of routes(id)) {
        // Signed in: a route for users only refuses a visitor (401) before it reads the ids.
        const res = await ctx.app.inject({ url, headers: { authorization: `Bearer ${reader.token}` } });
        expect(res.statusCode, url).toBe(400);
        expect(typeof res.json().error, url).toBe('string');
      }
    });

    it(`answers /dare/${id} with the app page as a 404`, async () => {
      expect((await ctx.app.inject({ url: `/dare/${id}` })).statusCode).toBe(404);
    });
  }

  it('still answers the largest id an id column holds (404, not found)', async () => {
    expect((await ctx.app.inject({ url: '/api/dares/2147483647' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/api/video-proxy/2147483647' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/api/dares?cursor=2147483647' })).statusCode).toBe(200);
  });
});

describe('wallet addresses that are not 32-byte keys', () => {
  // 32 base58 characters, so the shape passes, but it decodes to 23 bytes.
  const notAKey = '2'.repeat(32);

  it('answers 400 on /api/check-balance and /api/dev/airdrop', async () => {
    for (const [url, payload] of [
      ['/api/check-balance', { walletAddress: notAKey }],
      ['/api/dev/airdrop', { walletAddress: notAKey, amount: '1' }],
    ] as const) {
      const res = await ctx.app.inject({ method: 'POST', url, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toBe('Invalid wallet address');
    }
  });

  it('accepts a real address, including the all-zero key 111…1', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/check-balance',
      payload: { walletAddress: '11111111111111111111111111111111' },
    });
    expect(res.statusCode).toBe(200);
  });
});
