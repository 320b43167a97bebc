import { and, asc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import { dares, dareWallets, paymentIntents } from '#server/db/schema';
import type { PaymentIntentRow } from '#server/features/payments/payment-intents';

/**
 * Lapsed pre-program intents nobody reported paying: the job looks each reference up on chain
 * once. Program payments (a memo reference, not an account) are looked up by payments' own job.
 */
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
        isNull(paymentIntents.programInstruction),
      ),
    )
    .orderBy(asc(paymentIntents.id))
    .limit(limit);
}

export async function markIntentChecked(db: DbOrTx, intentId: number, now: Date): Promise<void> {
  await db.update(paymentIntents).set({ checkedAt: now }).where(eq(paymentIntents.id, intentId));
}

const noDareUses = sql`not exists (select 1 from ${dares} where ${dares.escrowWallet} = ${paymentIntents.escrowWallet})`;

/**
 * Paid, never credited, lapsed, in a vault no dare uses: taken for a refund (the same conditional
 * update as a credit). A payment into a dare's vault is that dare's pool on chain: payments
 * credits it, or the dare's cancel refunds it.
 */
export async function takeLapsedForRefund(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .update(paymentIntents)
    .set({ usedAt: now, usedFor: 'refund' })
    .where(
      and(
        lte(paymentIntents.expiresAt, now),
        isNull(paymentIntents.usedAt),
        isNotNull(paymentIntents.paidAt),
        noDareUses,
      ),
    )
    .returning({ id: paymentIntents.id });
  return rows.map((row) => row.id);
}

/** Vaults no dare uses holding intents taken for a refund that has not landed yet. */
export async function vaultsOwingHeldRefunds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ escrowWallet: paymentIntents.escrowWallet })
    .from(paymentIntents)
    .where(and(eq(paymentIntents.usedFor, 'refund'), isNull(paymentIntents.refundedAt), noDareUses))
    .orderBy(asc(paymentIntents.escrowWallet));
  return rows.map((row) => row.escrowWallet);
}

/** The dare an escrow funds, if any: a held payment's refund is booked to it. */
export async function findEscrowDareId(db: DbOrTx, escrowWallet: string): Promise<number | null | undefined> {
  const [row] = await db
    .select({ dareId: dareWallets.dareId })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrowWallet));
  return row?.dareId;
}
