import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshAfterPayment } from './refresh-after-payment';

function seeded() {
  const client = new QueryClient();
  const keys = [
    ['/api/check-balance', 'walletA'],
    ['/api/check-balance', 'walletB'],
    ['/api/dares?filter=active'],
    ['/api/dares', { filter: 'all' }],
    ['/api/dares', 7],
    ['/api/stats'],
    ['/api/leaderboard'],
    ['/api/voting-rights', { userId: 3 }],
  ];
  for (const key of keys) client.setQueryData(key, 'cached');
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((query) => query.isStale())
      .map((query) => JSON.stringify(query.queryKey))
      .sort();
  return { client, stale };
}

describe('refreshAfterPayment', () => {
  it("marks the payer's balance, every dare read, the stats and the voting rights for refetch, nothing else", async () => {
    const { client, stale } = seeded();
    await refreshAfterPayment(client, 'walletA');
    expect(stale()).toEqual(
      [
        '["/api/check-balance","walletA"]',
        '["/api/dares",7]',
        '["/api/dares",{"filter":"all"}]',
        '["/api/dares?filter=active"]',
        '["/api/stats"]',
        '["/api/voting-rights",{"userId":3}]',
      ].sort(),
    );
  });

  it('spares the query the caller just wrote from the answer', async () => {
    const { client, stale } = seeded();
    await refreshAfterPayment(client, 'walletA', { keep: ['/api/dares', 7] });
    expect(stale()).not.toContain('["/api/dares",7]');
    expect(stale()).toContain('["/api/dares?filter=active"]');
  });
});
