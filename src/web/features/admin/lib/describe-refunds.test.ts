import { describe, expect, it } from 'vitest';
import { describeRefunds } from './describe-refunds';

describe('describeRefunds', () => {
  it('says nothing when no money moved', () => {
    expect(
      describeRefunds({ refunded: 0, refundedAmount: '0', failed: 0, failureReason: null }),
    ).toBeUndefined();
  });

  it('counts the refunded contributions and their SOL', () => {
    expect(describeRefunds({ refunded: 1, refundedAmount: '0.5', failed: 0, failureReason: null })).toBe(
      'Refunded 0.5 SOL in 1 contribution.',
    );
    expect(describeRefunds({ refunded: 3, refundedAmount: '1.25', failed: 0, failureReason: null })).toBe(
      'Refunded 1.25 SOL in 3 contributions.',
    );
  });

  it('says a refund that did not complete will be retried, with its reason', () => {
    expect(
      describeRefunds({ refunded: 1, refundedAmount: '0.1', failed: 1, failureReason: 'blockhash expired' }),
    ).toBe(
      'Refunded 0.1 SOL in 1 contribution. The refund did not complete: blockhash expired. It will be retried.',
    );
  });
});
