/** The periodic refunds job: v1 retired, overdue dares cancelled, every refund owed retried, vaults finished. */
import type { RefundSummary } from '#contract/admin';
import { CLAIM_MESSAGES } from '#contract/claims';
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { type FinishedVaultsRun, finishVaults } from './finish-vaults';
import { refundDare } from './refund-dare';
import { refundFailureReason } from './refund-vault';
import type { Refunds } from './refunds-deps';
import { cancelExpiredDares, daresOwingRefunds } from './repo/dares';
import { failClaimsOfRetiredDares, retireV1Dares } from './repo/retired-escrows';

/**
 * The periodic job: every open dare of escrow program v1 is retired (cancelled, its unpaid
 * prizes failed: v1 let the moderator key pay a pool to anyone, docs/decisions/050-retire-v1.md)
 * and refunded; dares past deadline + grace with no winner are cancelled and refunded;
 * cancelled dares still owing refunds (a failed or interrupted run) are retried, each dare on
 * its own (one that fails does not hold up the next); then ended dares' vaults are finished.
 * (Payments nobody finished, and vaults no dare uses, are the payments job's: it hands those
 * vaults to cancelAndRefund.)
 */
export async function refundDue(refunds: Refunds): Promise<{
  /** v1 dares this run retired (their refunds are among `dareIds`). */
  retired: number[];
  dareIds: number[];
  summaries: RefundSummary[];
  finished: FinishedVaultsRun;
}> {
  const { db, clock } = refunds;
  const now = clock();
  const retired = await retireV1Dares(db, now);
  await failClaimsOfRetiredDares(db, CLAIM_MESSAGES.escrowRetired, now);
  await cancelExpiredDares(db, new Date(now.getTime() - REFUND_GRACE_MS), now);
  const dareIds = await daresOwingRefunds(db);
  const summaries: RefundSummary[] = [];
  for (const dareId of dareIds) {
    summaries.push(
      await refundDare(refunds, dareId).catch((error: unknown) => ({
        refunded: 0,
        refundedAmount: '0',
        failed: 1,
        failureReason: refundFailureReason(error),
      })),
    );
  }
  return { retired, dareIds, summaries, finished: await finishVaults(refunds) };
}
