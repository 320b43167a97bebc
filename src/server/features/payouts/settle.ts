import { and, eq, isNull, sql } from 'drizzle-orm';
import { solToLamports } from '../../../contract/money';
import type { Tx } from '../../db/client';
import { claims, dareWallets, paymentIntents, poolContributions, users } from '../../db/schema';
import { appendLedgerEntry, ledgerBalanceOf } from '../ledger/repo';
import { markStrayPaymentsRefunded } from '../refunds/stray-repo';
import type { PayoutTransferRow } from './repo';
import { REPUTATION } from './reputation';

/**
 * Books a transfer that landed: the ledger line, the escrow's balance, and the claim (paid, the
 * win added to the user), the contribution (refunded) or the held payment (refunded). Runs in the
 * transaction that moved the transfer from 'sending' to 'confirmed', so it happens exactly once.
 * A transfer that emptied the escrow also carried the SOL beyond the books: it is booked as a
 * `surplus` line coming in, and the transfer's line shows everything that went out.
 */
export async function bookLandedTransfer(tx: Tx, transfer: PayoutTransferRow, now: Date): Promise<void> {
  const lamports = solToLamports(transfer.amount);
  const surplus = solToLamports(transfer.surplus);
  let userId: number | null = null;
  if (transfer.purpose === 'claim' && transfer.claimId !== null) {
    const [claim] = await tx
      .update(claims)
      .set({ status: 'paid', transactionHash: transfer.signature, failureReason: null, updatedAt: now })
      .where(eq(claims.id, transfer.claimId))
      .returning({ userId: claims.userId });
    if (claim) {
      userId = claim.userId;
      await tx
        .update(users)
        .set({
          dareWins: sql`${users.dareWins} + 1`,
          totalEarnings: sql`${users.totalEarnings} + ${transfer.amount}`,
          reputation: sql`${users.reputation} + ${REPUTATION.prizeWon}`,
          updatedAt: now,
        })
        .where(eq(users.id, claim.userId));
    }
  }
  if (transfer.purpose === 'refund' && transfer.contributionId !== null) {
    const [contribution] = await tx
      .update(poolContributions)
      .set({ refundSignature: transfer.signature, refundedAt: now })
      .where(and(eq(poolContributions.id, transfer.contributionId), isNull(poolContributions.refundedAt)))
      .returning({ userId: poolContributions.userId });
    userId = contribution?.userId ?? null;
  }
  if (transfer.purpose === 'refund' && transfer.intentId !== null) {
    const [intent] = await tx
      .update(paymentIntents)
      .set({ refundedAt: now, refundSignature: transfer.signature })
      .where(and(eq(paymentIntents.id, transfer.intentId), isNull(paymentIntents.refundedAt)))
      .returning({ userId: paymentIntents.userId });
    userId = intent?.userId ?? null;
  }
  await tx
    .update(dareWallets)
    .set({ balance: sql`greatest(${dareWallets.balance} - ${transfer.amount}, 0)`, updatedAt: now })
    .where(eq(dareWallets.publicKey, transfer.escrowWallet));
  if (surplus > 0n) {
    await appendLedgerEntry(tx, {
      kind: 'surplus',
      escrowWallet: transfer.escrowWallet,
      // Sent by someone outside DarePool: the escrow is all the ledger can name.
      counterparty: transfer.escrowWallet,
      direction: 1,
      lamports: surplus,
      signature: transfer.signature,
      dareId: transfer.dareId,
      now,
    });
  }
  await appendLedgerEntry(tx, {
    kind: transfer.purpose === 'claim' ? 'payout' : 'refund',
    escrowWallet: transfer.escrowWallet,
    counterparty: transfer.recipient,
    direction: -1,
    lamports: lamports + surplus,
    signature: transfer.signature,
    dareId: transfer.dareId,
    userId,
    claimId: transfer.claimId,
    now,
  });
  if (transfer.strayPaymentId !== null) {
    // A transfer that emptied the escrow also carried the dust too small to be refunded alone.
    const emptied = (await ledgerBalanceOf(tx, transfer.escrowWallet)) === 0n;
    await markStrayPaymentsRefunded(tx, {
      escrowWallet: transfer.escrowWallet,
      strayPaymentId: emptied ? null : transfer.strayPaymentId,
      signature: transfer.signature,
      now,
    });
  }
}

/** A transfer that did not land: the claim becomes claimable again, with the reason shown. */
export async function releaseFailedTransfer(
  tx: Tx,
  transfer: PayoutTransferRow,
  reason: string,
  now: Date,
): Promise<void> {
  if (transfer.purpose === 'claim' && transfer.claimId !== null) {
    await tx
      .update(claims)
      .set({ status: 'pending', transactionHash: null, failureReason: reason, updatedAt: now })
      .where(and(eq(claims.id, transfer.claimId), eq(claims.status, 'processing')));
  }
  // A refund needs nothing released: the contribution stays unrefunded and the refund job retries.
}
