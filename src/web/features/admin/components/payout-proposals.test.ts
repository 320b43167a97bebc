import { afterEach, describe, expect, it, vi } from 'vitest';
import { relayCall } from './payout-proposals';

const fetchMock = vi.fn(async () => new Response(JSON.stringify({ proposal: {} }), { status: 200 }));

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockClear();
});

function stubBrowser() {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('localStorage', { getItem: () => null });
}

const winner = (submissionId: number | null, amount: string) => ({
  submissionId,
  walletAddress: 'w',
  amount,
});

describe('relayCall', () => {
  it("relays a community dare's signature through mark-winner", async () => {
    stubBrowser();
    await relayCall({ dareId: 5, winners: [winner(9, '0.35')] })!('c2lnbmVk');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/submissions/9/mark-winner',
      expect.objectContaining({ body: JSON.stringify({ dareId: 5, signedTransaction: 'c2lnbmVk' }) }),
    );
  });

  it("relays a Major Dare's through its both-winners route, the 70% share as the admin's pick", async () => {
    stubBrowser();
    await relayCall({ dareId: 6, winners: [winner(11, '0.3'), winner(12, '0.7')] })!('c2lnbmVk');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/major-dare/6/winners',
      expect.objectContaining({
        body: JSON.stringify({
          adminSubmissionId: 12,
          communitySubmissionId: 11,
          signedTransaction: 'c2lnbmVk',
        }),
      }),
    );
  });

  it('has no call for a proposal naming no submission', () => {
    expect(relayCall({ dareId: 6, winners: [winner(null, '1')] })).toBeNull();
  });
});
