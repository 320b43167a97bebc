import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  claims,
  dareWallets,
  paymentIntents,
  payoutTransfers,
  poolContributions,
  strayPayments,
  users,
} from '../../db/schema';

export type PayoutTransferRow = typeof payoutTransfers.$inferSelect;
export type PayoutPurpose = 'claim' | 'refund';

/**
 * What a transfer pays: a prize claim, a contribution's refund, money held for a payer, or SOL
 * sent straight to an escrow that never became a dare.
 */
export type PayoutTarget =
  | { purpose: 'claim'; claimId: number }
  | { purpose: 'refund'; contributionId: number }
  | { purpose: 'refund'; intentId: number }
  | { purpose: 'refund'; strayPaymentId: number };

function targetColumn(target: PayoutTarget) {
  if ('claimId' in target) return eq(payoutTransfers.claimId, target.claimId);
  if ('contributionId' in target) return eq(payoutTransfers.contributionId, target.contributionId);
  if ('intentId' in target) return eq(payoutTransfers.intentId, target.intentId);
  return eq(payoutTransfers.strayPaymentId, target.strayPaymentId);
}

/** How many transfers were ever recorded for this target (every failed attempt included). */
export async function countAttempts(db: DbOrTx, target: PayoutTarget): Promise<number> {
  return db.$count(payoutTransfers, targetColumn(target));
}

/** Whether a transfer out of this escrow is on its way (recorded, not settled). */
export async function hasSendingTransfer(db: DbOrTx, escrowWallet: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payoutTransfers.id })
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.escrowWallet, escrowWallet), eq(payoutTransfers.status, 'sending')))
    .limit(1);
  return row !== undefined;
}

export async function insertPayoutTransfer(
  db: DbOrTx,
  row: Omit<typeof payoutTransfers.$inferInsert, 'id' | 'status' | 'error'>,
): Promise<PayoutTransferRow> {
  const [inserted] = await db.insert(payoutTransfers).values(row).returning();
  return inserted!;
}

/** Moves a transfer out of 'sending' once: false when another path already settled it. */
export async function closeSendingTransfer(
  db: DbOrTx,
  id: number,
  status: 'confirmed' | 'failed' | 'expired',
  now: Date,
  error: string | null = null,
): Promise<boolean> {
  const updated = await db
    .update(payoutTransfers)
    .set({ status, error, updatedAt: now })
    .where(and(eq(payoutTransfers.id, id), eq(payoutTransfers.status, 'sending')))
    .returning({ id: payoutTransfers.id });
  return updated.length === 1;
}

export async function findSendingTransfers(db: DbOrTx): Promise<PayoutTransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(eq(payoutTransfers.status, 'sending'))
    .orderBy(payoutTransfers.id);
}

/** The latest failure of a contribution's refund, shown to the admin. */
export async function lastRefundError(db: DbOrTx, contributionId: number): Promise<string | null> {
  const [row] = await db
    .select({ error: payoutTransfers.error })
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.contributionId, contributionId), sql`${payoutTransfers.error} is not null`))
    .orderBy(sql`${payoutTransfers.id} desc`)
    .limit(1);
  return row?.error ?? null;
}

/** Which key signs for an escrow: its derivation index. */
export async function findEscrowDerivationIndex(db: DbOrTx, publicKey: string): Promise<number | undefined> {
  const [row] = await db
    .select({ derivationIndex: dareWallets.derivationIndex })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, publicKey));
  return row?.derivationIndex ?? undefined;
}

/** The claim is paid by this transfer; returns its winner. */
export async function markClaimPaid(
  db: DbOrTx,
  claimId: number,
  signature: string,
  now: Date,
): Promise<number | undefined> {
  const [claim] = await db
    .update(claims)
    .set({ status: 'paid', transactionHash: signature, failureReason: null, updatedAt: now })
    .where(eq(claims.id, claimId))
    .returning({ userId: claims.userId });
  return claim?.userId;
}

/** A paid prize counts on the winner's record: one more win, the earnings and the reputation. */
export async function creditWinner(
  db: DbOrTx,
  userId: number,
  prize: { earnings: string; reputation: number; now: Date },
): Promise<void> {
  await db
    .update(users)
    .set({
      dareWins: sql`${users.dareWins} + 1`,
      totalEarnings: sql`${users.totalEarnings} + ${prize.earnings}`,
      reputation: sql`${users.reputation} + ${prize.reputation}`,
      updatedAt: prize.now,
    })
    .where(eq(users.id, userId));
}

/** A failed or expired transfer of a claim being processed: claimable again, with the reason. */
export async function releaseProcessingClaim(
  db: DbOrTx,
  claimId: number,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .update(claims)
    .set({ status: 'pending', transactionHash: null, failureReason: reason, updatedAt: now })
    .where(and(eq(claims.id, claimId), eq(claims.status, 'processing')));
}

/** The contribution is refunded by this transfer (once); returns who had made it. */
export async function markContributionRefunded(
  db: DbOrTx,
  contributionId: number,
  signature: string,
  now: Date,
): Promise<number | undefined> {
  const [contribution] = await db
    .update(poolContributions)
    .set({ refundSignature: signature, refundedAt: now })
    .where(and(eq(poolContributions.id, contributionId), isNull(poolContributions.refundedAt)))
    .returning({ userId: poolContributions.userId });
  return contribution?.userId;
}

/** The held payment is refunded by this transfer (once); returns its payer. */
export async function markIntentRefunded(
  db: DbOrTx,
  intentId: number,
  signature: string,
  now: Date,
): Promise<number | undefined> {
  const [intent] = await db
    .update(paymentIntents)
    .set({ refundedAt: now, refundSignature: signature })
    .where(and(eq(paymentIntents.id, intentId), isNull(paymentIntents.refundedAt)))
    .returning({ userId: paymentIntents.userId });
  return intent?.userId;
}

export async function subtractFromEscrowBalance(
  db: DbOrTx,
  publicKey: string,
  amount: string,
  now: Date,
): Promise<void> {
  await db
    .update(dareWallets)
    .set({ balance: sql`greatest(${dareWallets.balance} - ${amount}, 0)`, updatedAt: now })
    .where(eq(dareWallets.publicKey, publicKey));
}

/**
 * A stray refund landed: its row is refunded; when it emptied the escrow (`strayPaymentId` null)
 * every row still open there went out with it (dust swept along).
 */
export async function markStrayPaymentsRefunded(
  db: DbOrTx,
  refund: { escrowWallet: string; strayPaymentId: number | null; signature: string; now: Date },
): Promise<void> {
  await db
    .update(strayPayments)
    .set({ refundedAt: refund.now, refundSignature: refund.signature })
    .where(
      and(
        eq(strayPayments.escrowWallet, refund.escrowWallet),
        isNull(strayPayments.refundedAt),
        refund.strayPaymentId === null ? undefined : eq(strayPayments.id, refund.strayPaymentId),
      ),
    );
}
