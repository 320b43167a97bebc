import { describe, expect, it } from 'vitest';
import { lamportsToSol, lamportsToSolRoundedUp, normalizeSol, solToLamports } from './money';

describe('SOL <-> lamports', () => {
  it('converts exactly, without floating point', () => {
    expect(solToLamports('1')).toBe(1_000_000_000n);
    expect(solToLamports('0.01')).toBe(10_000_000n);
    expect(solToLamports('0.000000001')).toBe(1n);
    expect(solToLamports('0.1')).toBe(100_000_000n);
    expect(solToLamports('123456789.123456789')).toBe(123_456_789_123_456_789n);
    // 0.1 + 0.2 in floats is 0.30000000000000004; in lamports it is exact.
    expect(lamportsToSol(solToLamports('0.1') + solToLamports('0.2'))).toBe('0.3');
  });

  it('prints the shortest exact decimal', () => {
    expect(lamportsToSol(0n)).toBe('0');
    expect(lamportsToSol(1n)).toBe('0.000000001');
    expect(lamportsToSol(1_500_000_000n)).toBe('1.5');
    expect(lamportsToSol(5_000n)).toBe('0.000005');
    expect(lamportsToSol(-2_500_000_000n)).toBe('-2.5');
  });

  it('normalises database numerics', () => {
    expect(normalizeSol('1.500000000')).toBe('1.5');
    expect(normalizeSol('0.000000000')).toBe('0');
  });

  it.each(['', '-1', '1e3', '0.0000000001', '1.', '.5', '01', 'abc', '1,5', ' 1 2'])('rejects %j', (text) => {
    expect(() => solToLamports(text)).toThrow(/Not a SOL amount/);
  });
});

describe('a figure shown to a user, rounded up', () => {
  it('never says less than is taken', () => {
    expect(lamportsToSolRoundedUp(1_675_400n, 4)).toBe('0.0017');
    expect(lamportsToSolRoundedUp(1_600_000n, 4)).toBe('0.0016');
    expect(lamportsToSolRoundedUp(1_600_001n, 4)).toBe('0.0017');
    expect(lamportsToSolRoundedUp(0n, 4)).toBe('0');
  });
});
