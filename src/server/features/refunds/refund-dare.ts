/** A dare's payers refunded, and the summary the admin sees: who got what back, what is still owed. */
import type { DareRefund, RefundSummary } from '#contract/admin';
import { JUDGING_MESSAGES } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import type { BookedPayment } from '#server/features/payouts/service';
import { failureOf, refundFailureReason, refundVault } from './refund-vault';
import type { Refunds } from './refunds-deps';
import { countRefundedBy, countUnrefundedContributions, findDareEscrow } from './repo/dares';

/** Every payer of a dare's vault back what they put in, each receipt exactly once. */
export async function refundDare(refunds: Refunds, dareId: number): Promise<RefundSummary> {
  const { db } = refunds;
  const summary: RefundSummary = {
    refunded: 0,
    refundedAmount: '0',
    failed: 0,
    failureReason: null,
    transfers: [],
  };
  const escrowWallet = await findDareEscrow(db, dareId);
  if (!escrowWallet) return summary;
  const booked: BookedPayment[] = [];
  try {
    const run = await refundVault(refunds, { escrowWallet, dareId });
    for (const outcome of run.outcomes)
      if (outcome.status === 'confirmed') booked.push(...outcome.booked.filter((b) => b.kind === 'refund'));
    summary.failureReason =
      run.state === 'settled'
        ? 'This dare was paid out to its winner: nothing to refund'
        : run.state === 'proposed'
          ? JUDGING_MESSAGES.cannotCancelProposed
          : failureOf(run.outcomes);
  } catch (error) {
    summary.failureReason = refundFailureReason(error);
  }
  const transfers: DareRefund[] = booked.map((refund) => ({
    signature: refund.signature,
    amount: lamportsToSol(refund.lamports),
    walletAddress: refund.wallet,
  }));
  summary.transfers = transfers;
  summary.refundedAmount = lamportsToSol(booked.reduce((sum, refund) => sum + refund.lamports, 0n));
  summary.refunded = await countRefundedBy(db, dareId, [...new Set(booked.map((r) => r.signature))]);
  summary.failed = await countUnrefundedContributions(db, dareId);
  if (summary.failed === 0) summary.failureReason = null;
  else summary.failureReason ??= 'Some contributions are not refunded yet';
  return summary;
}
