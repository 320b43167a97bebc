import { describe, expect, it } from 'vitest';
import { checkPoolAmount } from './pool-amount';

describe('checkPoolAmount', () => {
  it('accepts 0.01 SOL and more, canonically written', () => {
    expect(checkPoolAmount('0.01')).toEqual({ ok: true, amount: '0.01' });
    expect(checkPoolAmount(' 1.50 ')).toEqual({ ok: true, amount: '1.5' });
  });

  it("refuses nothing, zero, negatives and non-numbers with the spec's message", () => {
    for (const text of ['', '0', '0.000', '-1', 'abc', '1e-3', '0.0000000001']) {
      expect(checkPoolAmount(text)).toEqual({ ok: false, message: 'Please enter a valid amount' });
    }
  });

  it('refuses less than the UI minimum of 0.01 SOL', () => {
    expect(checkPoolAmount('0.009')).toEqual({ ok: false, message: 'The minimum amount is 0.01 SOL' });
  });
});
