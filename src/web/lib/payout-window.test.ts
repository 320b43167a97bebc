import { describe, expect, it } from 'vitest';
import { proposalSentence } from './payout-window';

const now = new Date('2026-11-27T14:05:00Z');
const executesAt = '2026-11-28T14:05:00Z';

describe('proposalSentence', () => {
  it("says who, how much, when and the guardian's veto, as issue 24 words it", () => {
    const { question, detail } = proposalSentence([{ name: 'walker1', amount: '0.35' }], executesAt, {
      now,
      timeZone: 'UTC',
    });
    expect(`${question} ${detail}`).toBe(
      'Name walker1 the winner? 0.35 SOL will be paid to their wallet on 28 Nov 14:05, 24 hours from now, unless the guardian vetoes it.',
    );
  });

  it("names a Major Dare's two winners with their 70/30 shares", () => {
    const { question, detail } = proposalSentence(
      [
        { name: 'alice', amount: '0.7' },
        { name: 'bob', amount: '0.3' },
      ],
      executesAt,
      { now, timeZone: 'UTC' },
    );
    expect(question).toBe('Name alice and bob the winners?');
    expect(detail).toBe(
      "0.7 SOL will be paid to alice's wallet and 0.3 SOL to bob's on 28 Nov 14:05, 24 hours from now, unless the guardian vetoes it.",
    );
  });

  it('pays one person holding both shares their sum, in lamports', () => {
    const { question, detail } = proposalSentence(
      [
        { name: 'alice', amount: '0.070000001' },
        { name: 'alice', amount: '0.03' },
      ],
      executesAt,
      { now, timeZone: 'UTC' },
    );
    expect(question).toBe('Name alice the winner?');
    expect(detail).toMatch(/^0\.100000001 SOL will be paid to their wallet/);
  });
});
