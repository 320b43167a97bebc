import { createHash, randomBytes } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { REFUSED_PAYMENT_HOLD_MINUTES } from '../../../contract/limits';
import { lamportsToSol } from '../../../contract/money';
import type { DbOrTx } from '../../db/client';
import { paymentIntents } from '../../db/schema';

/**
 * How long a payment request can be credited. The blockhash already limits when the transfer can
 * land (about a minute); the longer window lets a client that crashed after sending finish the
 * dare or contribution later with the same signature.
 */
export const PAYMENT_INTENT_TTL_MS = 24 * 3600 * 1000;

/**
 * After step 7 refused a payment the server holds for its payer, the payer has this long to send
 * the request again (the web app keeps the paid stake for exactly that); then it is refunded.
 */
export const REFUSED_PAYMENT_HOLD_MS = REFUSED_PAYMENT_HOLD_MINUTES * 60 * 1000;

/** The relay compares messages by this digest: the server-built bytes, nothing else, are sent. */
export function messageHash(messageBytes: Uint8Array): string {
  return createHash('sha256').update(messageBytes).digest('hex');
}

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
    messageHash: string;
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
      messageHash: intent.messageHash,
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
 * Consumes an intent with the signature that paid it (booked first, see bookPayment): credited.
 * Only one caller can win: the row is matched on `used_at is null`, and a refund takes the intent
 * the same way, so an intent is either credited or refunded, never both.
 */
export async function consumeIntent(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'credit' })
    .where(
      and(
        eq(paymentIntents.id, intentId),
        isNull(paymentIntents.usedAt),
        eq(paymentIntents.signature, signature),
      ),
    )
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

/** Records the transfer that paid an intent; false when it was already recorded (by any signature). */
export async function markIntentPaid(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ signature, paidAt: now })
    // A lapsed intent closed by the stray-SOL sweep takes no payment: the sweep refunds it.
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.paidAt), isNull(paymentIntents.usedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

export async function findIntent(db: DbOrTx, id: number): Promise<PaymentIntentRow | undefined> {
  const [row] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, id));
  return row;
}

/** The relay's claim: at most one transaction is ever sent for an intent. */
export async function claimRelay(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(paymentIntents)
    .set({ relaySignature: signature, relayedAt: now })
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.relayedAt)))
    .returning({ id: paymentIntents.id });
  return rows.length === 1;
}

/** The node refused the transaction before it was forwarded: nothing was sent, the claim is lifted. */
export async function releaseRelay(db: DbOrTx, intentId: number, signature: string): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ relaySignature: null, relayedAt: null })
    .where(and(eq(paymentIntents.id, intentId), eq(paymentIntents.relaySignature, signature)));
}

/**
 * Step 7 refused a payment the server holds for this user: the intent lapses soon, so the job
 * refunds it unless the user sends a corrected request in time.
 */
export async function shortenHold(db: DbOrTx, userId: number, signature: string, until: Date) {
  await db
    .update(paymentIntents)
    .set({ expiresAt: sql`least(${paymentIntents.expiresAt}, ${until.toISOString()}::timestamptz)` })
    .where(
      and(
        eq(paymentIntents.userId, userId),
        eq(paymentIntents.signature, signature),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
      ),
    );
}

/** Lapsed intents nobody reported paying: the job looks each reference up on chain once. */
export async function expiredUncheckedIntents(db: DbOrTx, now: Date, limit = 100) {
  return db
    .select()
    .from(paymentIntents)
    .where(
      and(
        lte(paymentIntents.expiresAt, now),
        isNull(paymentIntents.usedAt),
        isNull(paymentIntents.paidAt),
        isNull(paymentIntents.checkedAt),
      ),
    )
    .orderBy(asc(paymentIntents.id))
    .limit(limit);
}

export async function markIntentChecked(db: DbOrTx, intentId: number, now: Date): Promise<void> {
  await db.update(paymentIntents).set({ checkedAt: now }).where(eq(paymentIntents.id, intentId));
}

/** Paid, never credited, lapsed: taken for a refund (the same conditional update as a credit). */
export async function takeLapsedForRefund(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'refund' })
    .where(
      and(
        lte(paymentIntents.expiresAt, now),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
      ),
    )
    .returning({ id: paymentIntents.id });
  return rows.map((row) => row.id);
}

/** Intents taken for a refund whose refund has not landed yet (new, failed or interrupted). */
export async function intentsOwingRefunds(db: DbOrTx): Promise<PaymentIntentRow[]> {
  return db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.usedFor, 'refund'), isNull(paymentIntents.refundedAt)))
    .orderBy(asc(paymentIntents.id));
}

/**
 * Closes an escrow's intents that lapsed unpaid and whose reference was looked up (`checked_at`):
 * no credit, relay or look-up can book a payment for them any more (the same `used_at is null`
 * update a credit wins with), so what reached the escrow is the stray-SOL sweep's to refund.
 */
export async function closeLapsedIntents(db: DbOrTx, escrowWallet: string, now: Date): Promise<void> {
  await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'lapsed' })
    .where(
      and(
        eq(paymentIntents.escrowWallet, escrowWallet),
        isNull(paymentIntents.usedAt),
        isNull(paymentIntents.paidAt),
        isNotNull(paymentIntents.checkedAt),
        lte(paymentIntents.expiresAt, now),
      ),
    );
}

/** Whether an intent of this escrow can still be credited, or its held payment still refunded. */
export async function hasUnsettledIntents(db: DbOrTx, escrowWallet: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentIntents.id })
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.escrowWallet, escrowWallet),
        sql`(${paymentIntents.usedAt} is null or (${paymentIntents.usedFor} = 'refund' and ${paymentIntents.refundedAt} is null))`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
