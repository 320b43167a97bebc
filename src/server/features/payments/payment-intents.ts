import { randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { lamportsToSol } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { paymentIntents } from '../../db/schema';

/**
 * How long a payment request can be credited. The blockhash already limits when the transfer can
 * land (about a minute); the longer window lets a client that crashed after sending finish the
 * dare or contribution later with the same signature.
 */
export const PAYMENT_INTENT_TTL_MS = 24 * 3600 * 1000;

export type PaymentPurpose = 'stake' | 'contribution';
export type PaymentIntentRow = typeof paymentIntents.$inferSelect;

/** A fresh random public key: it exists only to tie one transaction to one intent. */
export function newReferenceKey(): string {
  return getAddressDecoder().decode(randomBytes(32));
}

export async function insertPaymentIntent(
  db: DbOrTx,
  intent: {
    purpose: PaymentPurpose;
    userId: number;
    dareId: number | null;
    fromWallet: string;
    escrowWallet: string;
    lamports: bigint;
    reference: string;
    minSlot: bigint;
    now: Date;
  },
): Promise<PaymentIntentRow> {
  const [row] = await db
    .insert(paymentIntents)
    .values({
      purpose: intent.purpose,
      userId: intent.userId,
      dareId: intent.dareId,
      fromWallet: intent.fromWallet,
      escrowWallet: intent.escrowWallet,
      amount: lamportsToSol(intent.lamports),
      reference: intent.reference,
      minSlot: intent.minSlot,
      expiresAt: new Date(intent.now.getTime() + PAYMENT_INTENT_TTL_MS),
      createdAt: intent.now,
    })
    .returning();
  return row!;
}

/** The caller's open intents whose reference is one of `accountKeys` (the transaction's accounts). */
export async function findOpenIntents(
  db: DbOrTx,
  filter: {
    userId: number;
    references: string[];
    now: Date;
    purpose?: PaymentPurpose;
    escrowWallet?: string;
  },
): Promise<PaymentIntentRow[]> {
  if (filter.references.length === 0) return [];
  return db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.userId, filter.userId),
        inArray(paymentIntents.reference, filter.references),
        isNull(paymentIntents.usedAt),
        gt(paymentIntents.expiresAt, filter.now),
        filter.purpose ? eq(paymentIntents.purpose, filter.purpose) : undefined,
        filter.escrowWallet ? eq(paymentIntents.escrowWallet, filter.escrowWallet) : undefined,
      ),
    );
}

/**
 * Consumes an intent with the signature that paid it. Only one caller can win: the row is
 * matched on `used_at is null` and the signature column is unique.
 */
export async function consumeIntent(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, signature })
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.usedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}
