import { and, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { paymentIntents } from '#server/db/schema';
import type { PaymentIntentRow, PaymentPurpose } from '../payment-intents';

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
    expiresAt: Date;
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
      expiresAt: intent.expiresAt,
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
