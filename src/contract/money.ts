import { LAMPORTS_PER_SOL } from './limits';

/** A SOL amount as the API speaks it: a plain decimal string with at most 9 fraction digits. */
export const SOL_DECIMAL_PATTERN = /^(0|[1-9]\d{0,8})(\.\d{1,9})?$/;

export class MoneyFormatError extends Error {}

/** '1.5' -> 1_500_000_000n. Rejects floats' artefacts, signs, exponents and more than 9 decimals. */
export function solToLamports(sol: string): bigint {
  const text = sol.trim();
  if (!SOL_DECIMAL_PATTERN.test(text)) throw new MoneyFormatError(`Not a SOL amount: ${JSON.stringify(sol)}`);
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * LAMPORTS_PER_SOL + BigInt(fraction.padEnd(9, '0'));
}

/** 1_500_000_000n -> '1.5'; always the shortest exact decimal, never exponent notation. */
export function lamportsToSol(lamports: bigint): string {
  const negative = lamports < 0n;
  const abs = negative ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const fraction = (abs % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A figure shown to a user ('Entering costs 0.0017 SOL'): rounded up to `decimals`, so what the
 * user is told to hold is never less than what is taken.
 */
export function lamportsToSolRoundedUp(lamports: bigint, decimals: number): string {
  const step = LAMPORTS_PER_SOL / 10n ** BigInt(decimals);
  return lamportsToSol(((lamports + step - 1n) / step) * step);
}

/** Database numeric(18,9) text ('1.500000000') -> canonical API string ('1.5'). */
export function normalizeSol(value: string): string {
  return lamportsToSol(solToLamports(value));
}

export function isSolAmount(value: string): boolean {
  return SOL_DECIMAL_PATTERN.test(value.trim());
}
