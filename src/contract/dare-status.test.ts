import { describe, expect, it } from 'vitest';
import {
  CLOSED_WORDS,
  closedReason,
  darePhase,
  phaseReason,
  refundedLine,
  refundsLine,
  refundsOpenAt,
} from './dare-status';

const now = new Date('2026-05-10T12:00:00Z');
const past = '2026-05-01T12:00:00Z';
const ahead = '2026-06-01T12:00:00Z';

describe('darePhase', () => {
  it('tells a dare nobody won (Ended) from one with a winner (Completed)', () => {
    expect(darePhase({ status: 'active', deadline: past, refundedBackers: 0 }, now)).toBe('ended');
    expect(darePhase({ status: 'completed', deadline: past, refundedBackers: 0 }, now)).toBe('completed');
    expect(darePhase({ status: 'active', deadline: ahead, refundedBackers: 0 }, now)).toBe('active');
    expect(darePhase({ status: 'active', deadline: null, refundedBackers: 0 }, now)).toBe('active');
  });

  it('reads Refunded once SOL went back, whether cancelled or refunded by its payers', () => {
    expect(darePhase({ status: 'cancelled', deadline: ahead, refundedBackers: 2 }, now)).toBe('refunded');
    expect(darePhase({ status: 'active', deadline: past, refundedBackers: 1 }, now)).toBe('refunded');
    expect(darePhase({ status: 'cancelled', deadline: ahead, refundedBackers: 0 }, now)).toBe('cancelled');
  });

  it('reads Refunding while only some payers have their SOL back (issue 37, item 8)', () => {
    const partial = { status: 'active' as const, deadline: past, refundedBackers: 1, paidBackers: 2 };
    expect(darePhase(partial, now)).toBe('refunding');
    expect(darePhase({ ...partial, refundedBackers: 2 }, now)).toBe('refunded');
  });
});

describe('the words', () => {
  it('counts backers and dates the refund a week after the deadline', () => {
    expect(refundedLine('0.2', 2)).toBe('Refunded 0.2 SOL to 2 backers');
    expect(refundedLine('0.05', 1)).toBe('Refunded 0.05 SOL to 1 backer');
    expect(refundsOpenAt(past).toISOString()).toBe('2026-05-08T12:00:00.000Z');
    expect(refundsLine({ amount: '0.05', backers: 1, paidAmount: '0.07', paidBackers: 2 })).toBe(
      'Refunding: 1 of 2 backers refunded (0.05 of 0.07 SOL)',
    );
    expect(refundsLine({ amount: '0.07', backers: 2, paidAmount: '0.07', paidBackers: 2 })).toBe(
      'Refunded 0.07 SOL to 2 backers',
    );
  });
});

describe('phaseReason', () => {
  it('says why a retired v1 dare was cancelled, then that its SOL went back; nothing for other dares', () => {
    expect(phaseReason('cancelled', 'escrow_retired')).toBe(
      "Cancelled: this dare's escrow was retired (program v1), every backer gets their SOL back",
    );
    expect(phaseReason('refunded', 'escrow_retired')).toBe(
      "Refunded: this dare's escrow was retired (program v1), every backer got their SOL back",
    );
    expect(phaseReason('refunded', null)).toBeNull();
    expect(phaseReason('cancelled', null)).toBeNull();
    expect(phaseReason('active', 'escrow_retired')).toBeNull();
  });
});

describe('closedReason', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const past = '2026-06-01T11:59:59Z';
  const ahead = '2026-06-01T12:00:01Z';
  it('is null while the phase is active and the deadline ahead, or there is none', () => {
    expect(closedReason({ phase: 'active', deadline: ahead }, now)).toBeNull();
    expect(closedReason({ phase: 'active', deadline: null }, now)).toBeNull();
  });
  it('says the deadline passed for an ended dare, and for an active one whose deadline passed on the open page', () => {
    expect(closedReason({ phase: 'ended', deadline: past }, now)).toBe(CLOSED_WORDS.deadlinePassed);
    expect(closedReason({ phase: 'active', deadline: past }, now)).toBe(CLOSED_WORDS.deadlinePassed);
  });
  it.each(['completed', 'cancelled', 'refunding', 'refunded'] as const)(
    'says a %s dare no longer takes SOL',
    (phase) => {
      expect(closedReason({ phase, deadline: ahead }, now)).toBe(CLOSED_WORDS.noLongerTakesSol);
    },
  );
});
