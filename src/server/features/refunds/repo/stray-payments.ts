import { and, asc, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { lamportsToSol } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import { dares, dareWallets, paymentIntents, strayPayments } from '#server/db/schema';
import { appendLedgerEntry } from '#server/ledger/entries';

export type StrayPaymentRow = typeof strayPayments.$inferSelect;

/** Escrows whose reservation lapsed without becoming a dare: the only ones the sweep touches. */
export async function unusedExpiredEscrows(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ publicKey: dareWallets.publicKey })
    .from(dareWallets)
    .where(
      and(
        eq(dareWallets.status, 'expired'),
        isNull(dareWallets.dareId),
        sql`not exists (select 1 from ${dares} where ${dares.escrowWallet} = ${dareWallets.publicKey})`,
      ),
    )
    .orderBy(asc(dareWallets.id));
  return rows.map((row) => row.publicKey);
}

/**
 * Books SOL a wallet sent straight to an unused escrow: the stray row and a `surplus` line from
 * its sender, once per (transaction, escrow, sender) — both unique — and the escrow's balance.
 * False when it was already booked (another run found it first).
 */
export async function bookStrayPayment(
  db: DbOrTx,
  stray: { escrowWallet: string; signature: string; fromWallet: string; lamports: bigint; now: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(strayPayments)
    .values({
      escrowWallet: stray.escrowWallet,
      signature: stray.signature,
      fromWallet: stray.fromWallet,
      amount: lamportsToSol(stray.lamports),
      foundAt: stray.now,
    })
    .onConflictDoNothing()
    .returning({ id: strayPayments.id });
  if (inserted.length === 0) return false;
  await db
    .update(dareWallets)
    .set({ balance: sql`${dareWallets.balance} + ${lamportsToSol(stray.lamports)}`, updatedAt: stray.now })
    .where(eq(dareWallets.publicKey, stray.escrowWallet));
  await appendLedgerEntry(db, {
    kind: 'surplus',
    escrowWallet: stray.escrowWallet,
    counterparty: stray.fromWallet,
    direction: 1,
    lamports: stray.lamports,
    signature: stray.signature,
    now: stray.now,
  });
  return true;
}

/** What an escrow still owes its stray senders, largest first: the smallest is refunded last. */
export async function strayPaymentsOwingRefunds(
  db: DbOrTx,
  escrowWallet: string,
): Promise<StrayPaymentRow[]> {
  return db
    .select()
    .from(strayPayments)
    .where(and(eq(strayPayments.escrowWallet, escrowWallet), isNull(strayPayments.refundedAt)))
    .orderBy(desc(strayPayments.amount), asc(strayPayments.id));
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
