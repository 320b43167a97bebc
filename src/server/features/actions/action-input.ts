/** An Action request's input read: an amount, an account, a signature; 400 in the Action's words otherwise. */
import { type Address, address, type Signature } from '@solana/kit';
import { POOL_ADD_MIN_SOL } from '#contract/limits';
import { solToLamports } from '#contract/money';
import { badRequest } from '#server/errors';
import { ACTION_AMOUNT_MAX_SOL, ACTION_MESSAGES } from './action-terms';

/** An amount Add to Pool takes (9 decimals at most), up to the Actions' max. */
export function parseAmount(text: string): string {
  const amount = text.trim();
  if (
    !/^\d+(\.\d{1,9})?$/.test(amount) ||
    solToLamports(amount) < solToLamports(POOL_ADD_MIN_SOL) ||
    solToLamports(amount) > solToLamports(ACTION_AMOUNT_MAX_SOL)
  )
    throw badRequest(ACTION_MESSAGES.invalidAmount);
  return amount;
}

export function parseAddress(text: string, message: string): Address {
  try {
    return address(text);
  } catch {
    throw badRequest(message);
  }
}

/** A transaction signature's shape (base58, 64 bytes); whether it landed is the chain's to say. */
export function parseSignature(text: string): Signature {
  if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(text)) throw badRequest(ACTION_MESSAGES.invalidSignature);
  return text as Signature;
}
