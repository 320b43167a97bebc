import { describe, expect, it } from 'vitest';
import type { DareOutcome } from '#contract/submissions';
import { chosenPrizes, winnerNamer } from './winner-actions';

const outcome = (overrides: Partial<DareOutcome>): DareOutcome => ({
  votingClosed: null,
  winners: [],
  proposal: null,
  judging: null,
  refunds: [],
  ...overrides,
});
const proposal = (vetoed: boolean) => ({
  winners: [
    { submissionId: 8, walletAddress: 'B', amount: '0.3' },
    { submissionId: 7, walletAddress: 'A', amount: '0.7' },
  ],
  executesAt: '2026-11-28T14:05:00.000Z',
  signature: 'sig',
  vetoed,
});

describe('chosenPrizes', () => {
  it("reads a standing Major Dare proposal's larger share as the admin's 70%", () => {
    expect(chosenPrizes(outcome({ proposal: proposal(false) }))).toEqual({
      admin: { submissionId: 7, walletAddress: 'A', amount: '0.7' },
      community: { submissionId: 8, walletAddress: 'B', amount: '0.3' },
    });
  });

  it('opens the prizes again after a veto', () => {
    expect(chosenPrizes(outcome({ proposal: proposal(true) }))).toEqual({});
  });

  it('prefers the picks the server recorded', () => {
    const winners: DareOutcome['winners'] = [
      {
        submissionId: 8,
        username: 'bob',
        claimType: 'major_admin',
        amount: '0.7',
        status: 'pending',
        transactionSignature: null,
      },
    ];
    expect(chosenPrizes(outcome({ winners, proposal: proposal(false) }))).toEqual({ admin: winners[0] });
  });
});

describe('winnerNamer', () => {
  it('names a winner by username, else by a short address', () => {
    const name = winnerNamer(new Map([[7, { username: 'walker1', walletAddress: null }]]));
    expect(name({ submissionId: 7, walletAddress: 'x', amount: '1' })).toBe('walker1');
    expect(
      name({ submissionId: 9, walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: '1' }),
    ).toBe('7xKX…gAsU');
  });
});
