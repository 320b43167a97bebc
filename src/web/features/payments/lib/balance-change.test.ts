import { describe, expect, it } from 'vitest';
import { balanceChange } from './balance-change';

describe('balanceChange', () => {
  it('signs the SOL difference between two lamport balances', () => {
    expect(balanceChange('2000000000', '1499995000')).toBe('-0.500005');
    expect(balanceChange('0', '500000000')).toBe('+0.5');
    expect(balanceChange('1', '1')).toBe('0');
  });
});
