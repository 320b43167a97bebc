import { POOL_ADD_MIN_SOL } from '#contract/limits';
import { isSolAmount, normalizeSol, solToLamports } from '#contract/money';
import { PAYMENT_MESSAGES } from '#contract/payments';

/**
 * docs/product.md#add-to-pool-rules: more than 0 ('Please enter a valid amount'), and at least the
 * UI minimum of 0.01 SOL. Exact decimal text in, canonical SOL text out.
 */
export function checkPoolAmount(text: string): { ok: true; amount: string } | { ok: false; message: string } {
  const value = text.trim();
  if (!isSolAmount(value) || solToLamports(value) <= 0n) {
    return { ok: false, message: PAYMENT_MESSAGES.invalidAmount };
  }
  if (solToLamports(value) < solToLamports(POOL_ADD_MIN_SOL)) {
    return { ok: false, message: `The minimum amount is ${POOL_ADD_MIN_SOL} SOL` };
  }
  return { ok: true, amount: normalizeSol(value) };
}
