import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { dareWallets, paymentIntents } from '#server/db/schema';
import type { PaymentIntentRow } from '#server/features/payments/payment-intents';

/** Lapsed intents nobody reported paying: the job looks each reference up on chain once. */
export async function expiredUncheckedIntents(
  db: DbOrTx,
  now: Date,
  limit = 100,
): Promise<PaymentIntentRow[]> {
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

/** The dare an escrow funds, if any: a held payment's refund is booked to it. */
export async function findEscrowDareId(db: DbOrTx, escrowWallet: string): Promise<number | null | undefined> {
  const [row] = await db
    .select({ dareId: dareWallets.dareId })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrowWallet));
  return row?.dareId;
}
