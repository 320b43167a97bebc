import { REPUTATION } from '#contract/limits';
import { solToLamports } from '#contract/money';
import type { Tx } from '#server/db/client';
import { appendLedgerEntry, ledgerBalanceOf } from '#server/ledger/entries';
import {
  creditWinner,
  markClaimPaid,
  markContributionRefunded,
  markIntentRefunded,
  markStrayPaymentsRefunded,
  type PayoutTransferRow,
  releaseProcessingClaim,
  subtractFromEscrowBalance,
} from './repo';

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
    userId = (await markClaimPaid(tx, transfer.claimId, transfer.signature, now)) ?? null;
    if (userId !== null)
      await creditWinner(tx, userId, { earnings: transfer.amount, reputation: REPUTATION.prizeWon, now });
  }
  if (transfer.purpose === 'refund' && transfer.contributionId !== null) {
    userId = (await markContributionRefunded(tx, transfer.contributionId, transfer.signature, now)) ?? null;
  }
  if (transfer.purpose === 'refund' && transfer.intentId !== null) {
    userId = (await markIntentRefunded(tx, transfer.intentId, transfer.signature, now)) ?? null;
  }
  await subtractFromEscrowBalance(tx, transfer.escrowWallet, transfer.amount, now);
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
    await releaseProcessingClaim(tx, transfer.claimId, reason, now);
  }
  // A refund needs nothing released: the contribution stays unrefunded and the refund job retries.
}
