import { randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { REFUSED_PAYMENT_HOLD_MINUTES } from '#contract/limits';
import { DAY_MS } from '#contract/time';
import type { paymentIntents } from '#server/db/schema';

/**
 * How long a payment request can be credited. The blockhash already limits when the transfer can
 * land (about a minute); the longer window lets a client that crashed after sending finish the
 * dare or contribution later with the same signature.
 */
export const PAYMENT_INTENT_TTL_MS = DAY_MS;

/**
 * After step 7 refused a payment the server holds for its payer, the payer has this long to send
 * the request again (the web app keeps the paid stake for exactly that); then it is refunded.
 */
export const REFUSED_PAYMENT_HOLD_MS = REFUSED_PAYMENT_HOLD_MINUTES * 60 * 1000;

export type PaymentPurpose = 'stake' | 'contribution';
/** The escrow program instruction a payment intent's transaction carries. */
export type ProgramInstruction = 'create_vault' | 'deposit';
export type PaymentIntentRow = typeof paymentIntents.$inferSelect;

/**
 * A fresh random key (base58 of 32 random bytes): the text of the memo that makes the intent's
 * transaction its own, so no two intents ever share a message or a signature.
 */
export function newReferenceKey(): string {
  return getAddressDecoder().decode(randomBytes(32));
}
