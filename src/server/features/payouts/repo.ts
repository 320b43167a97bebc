import { and, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client';
import {
  claims,
  dareWallets,
  ledgerEntries,
  paymentIntents,
  payoutTransfers,
  poolContributions,
  users,
  vaultSignatureCursors,
} from '#server/db/schema';

export type PayoutTransferRow = typeof payoutTransfers.$inferSelect;
export type PayoutPurpose = 'claim' | 'refund';

/** How many transactions were ever recorded for this vault (every failed attempt included). */
export async function countVaultAttempts(db: DbOrTx, escrowWallet: string): Promise<number> {
  return db.$count(payoutTransfers, eq(payoutTransfers.escrowWallet, escrowWallet));
}

/** Whether a transaction out of this vault is on its way (recorded, not settled). */
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

export async function findTransferBySignature(
  db: DbOrTx,
  signature: string,
): Promise<PayoutTransferRow | undefined> {
  const [row] = await db.select().from(payoutTransfers).where(eq(payoutTransfers.signature, signature));
  return row;
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

/** What the chain moved, once the transaction is booked: everything paid, and the stray part of it. */
export async function setTransferMoved(
  db: DbOrTx,
  id: number,
  moved: { amount: string; surplus: string; now: Date },
): Promise<void> {
  await db
    .update(payoutTransfers)
    .set({ amount: moved.amount, surplus: moved.surplus, updatedAt: moved.now })
    .where(eq(payoutTransfers.id, id));
}

export async function findSendingTransfers(db: DbOrTx): Promise<PayoutTransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(eq(payoutTransfers.status, 'sending'))
    .orderBy(payoutTransfers.id);
}

/** The latest failure of a refund out of this vault, shown to the admin. */
export async function lastVaultError(db: DbOrTx, escrowWallet: string): Promise<string | null> {
  const [row] = await db
    .select({ error: payoutTransfers.error })
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.escrowWallet, escrowWallet), isNotNull(payoutTransfers.error)))
    .orderBy(sql`${payoutTransfers.id} desc`)
    .limit(1);
  return row?.error ?? null;
}

/**
 * Locks the vault's row until the transaction ends: bookings of one vault happen one at a time,
 * so a transaction found twice (its sender and the job that notices refunds) is booked once.
 */
export async function lockEscrow(db: DbOrTx, escrowWallet: string): Promise<void> {
  await db
    .select({ id: dareWallets.id })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrowWallet))
    .for('update');
}

/** Whether the ledger already books money leaving this vault in this transaction. */
export async function isBookedOut(db: DbOrTx, signature: string, escrowWallet: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.signature, signature),
        eq(ledgerEntries.escrowWallet, escrowWallet),
        eq(ledgerEntries.direction, -1),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Every transaction the ledger books a movement of this vault for (in or out). */
export async function bookedSignatures(db: DbOrTx, escrowWallet: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ signature: ledgerEntries.signature })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.escrowWallet, escrowWallet));
  return new Set(rows.map((row) => row.signature));
}

/** The newest signature of this vault the notice job has read (null: none yet, read it all). */
export async function findNoticeCursor(db: DbOrTx, escrowWallet: string): Promise<string | null> {
  const [row] = await db
    .select({ signature: vaultSignatureCursors.newestSignature })
    .from(vaultSignatureCursors)
    .where(eq(vaultSignatureCursors.escrowWallet, escrowWallet));
  return row?.signature ?? null;
}

/** The notice job read this vault's history up to `signature` (newest read). */
export async function saveNoticeCursor(
  db: DbOrTx,
  escrowWallet: string,
  signature: string,
  now: Date,
): Promise<void> {
  await db
    .insert(vaultSignatureCursors)
    .values({ escrowWallet, newestSignature: signature, updatedAt: now })
    .onConflictDoUpdate({
      target: vaultSignatureCursors.escrowWallet,
      set: { newestSignature: signature, updatedAt: now },
    });
}

/** The claims a settle pays: those that recorded its signature (a major dare's two). */
export async function findClaimsPaidBy(db: DbOrTx, signature: string) {
  return db.select().from(claims).where(eq(claims.transactionHash, signature)).orderBy(claims.id);
}

/** The claim is paid by this settle. */
export async function markClaimPaid(
  db: DbOrTx,
  claimId: number,
  signature: string,
  now: Date,
): Promise<void> {
  await db
    .update(claims)
    .set({ status: 'paid', transactionHash: signature, failureReason: null, updatedAt: now })
    .where(eq(claims.id, claimId));
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

/** A settle that did not land: the claims it would have paid are claimable again, with the reason. */
export async function releaseClaimsOf(
  db: DbOrTx,
  signature: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .update(claims)
    .set({ status: 'pending', transactionHash: null, failureReason: reason, updatedAt: now })
    .where(and(eq(claims.transactionHash, signature), eq(claims.status, 'processing')));
}

/**
 * A receipt of `payer` was refunded by this transaction: every unrefunded contribution it made to
 * the dare, and every payment held for it in this vault (paid, never credited), is refunded by it.
 * Returns the user the refund belongs to, when the books know one.
 */
export async function markPayerRefunded(
  db: DbOrTx,
  refund: { dareId: number | null; escrowWallet: string; payer: string; signature: string; now: Date },
): Promise<number | null> {
  const contributions =
    refund.dareId === null
      ? []
      : await db
          .update(poolContributions)
          .set({ refundSignature: refund.signature, refundedAt: refund.now })
          .where(
            and(
              eq(poolContributions.dareId, refund.dareId),
              eq(poolContributions.walletAddress, refund.payer),
              isNull(poolContributions.refundedAt),
            ),
          )
          .returning({ userId: poolContributions.userId });
  const intents = await db
    .update(paymentIntents)
    .set({
      usedAt: sql`coalesce(${paymentIntents.usedAt}, ${refund.now.toISOString()}::timestamptz)`,
      usedFor: 'refund',
      refundedAt: refund.now,
      refundSignature: refund.signature,
    })
    .where(
      and(
        eq(paymentIntents.escrowWallet, refund.escrowWallet),
        eq(paymentIntents.fromWallet, refund.payer),
        isNotNull(paymentIntents.paidAt),
        isNull(paymentIntents.refundedAt),
        or(isNull(paymentIntents.usedFor), eq(paymentIntents.usedFor, 'refund')),
      ),
    )
    .returning({ userId: paymentIntents.userId });
  return contributions[0]?.userId ?? intents[0]?.userId ?? null;
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

/** The vault is gone from the chain (every record closed, its rent back with the platform). */
export async function markEscrowClosed(db: DbOrTx, publicKey: string, now: Date): Promise<void> {
  await db
    .update(dareWallets)
    .set({ status: 'closed', updatedAt: now })
    .where(and(eq(dareWallets.publicKey, publicKey), sql`${dareWallets.status} <> 'closed'`));
}

/** The escrow program (1 or 2) that holds this vault, as recorded when it was reserved; 1 if unknown. */
export async function escrowProgramVersion(db: DbOrTx, escrowWallet: string): Promise<1 | 2> {
  const [row] = await db
    .select({ version: dareWallets.programVersion })
    .from(dareWallets)
    .where(eq(dareWallets.publicKey, escrowWallet));
  return row?.version === 2 ? 2 : 1;
}
