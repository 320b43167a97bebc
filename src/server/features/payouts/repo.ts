import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { payoutTransfers } from '../../db/schema';

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
