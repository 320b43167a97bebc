import type { DareRefund, RefundSummary } from '#contract/admin';
import { lamportsToSol, solToLamports } from '#contract/money';
import { AppError } from '../../errors';
import { type PayingServiceDeps, TransferAlreadyLive } from '../payouts/service';
import { createHeldPaymentRefunds, type HeldRefundsRun } from './held-payments';
import { cancelExpiredDares, daresOwingRefunds, findDareEscrow, unrefundedContributions } from './repo/dares';
import { createStrayPaymentRefunds, type StrayRefundsRun } from './stray-payments';

/** Moderation time after a deadline before a dare without a winner is refunded automatically. */
export const REFUND_GRACE_MS = 7 * 24 * 3600 * 1000;

function reasonOf(error: unknown): string {
  if (error instanceof TransferAlreadyLive) return 'A refund of this contribution is already on its way';
  if (error instanceof AppError) return error.message;
  return 'The refund could not be prepared';
}

export function createRefundsService({ db, chain, clock, payouts }: PayingServiceDeps) {
  const held = createHeldPaymentRefunds({ db, chain, clock, payouts });
  const stray = createStrayPaymentRefunds({ db, chain, clock, payouts });
  /** Only one refund run per dare at a time in this process; the database guards across processes. */
  const running = new Map<number, Promise<RefundSummary>>();

  async function runRefunds(dareId: number): Promise<RefundSummary> {
    const transfers: DareRefund[] = [];
    const summary: RefundSummary = {
      refunded: 0,
      refundedAmount: '0',
      failed: 0,
      failureReason: null,
      transfers,
    };
    const escrowWallet = await findDareEscrow(db, dareId);
    if (!escrowWallet) return summary;
    let refunded = 0n;
    for (const contribution of await unrefundedContributions(db, dareId)) {
      const lamports = solToLamports(contribution.amount);
      try {
        const outcome = await payouts.pay({
          target: { purpose: 'refund', contributionId: contribution.id },
          dareId,
          escrowWallet,
          recipient: contribution.walletAddress,
          lamports,
        });
        if (outcome.status === 'confirmed') {
          summary.refunded += 1;
          refunded += lamports;
          transfers.push({
            signature: outcome.signature,
            amount: lamportsToSol(lamports),
            walletAddress: contribution.walletAddress,
          });
          continue;
        }
        summary.failed += 1;
        summary.failureReason ??=
          outcome.status === 'failed' ? outcome.reason : 'The network has not confirmed the refund yet';
      } catch (error) {
        // Each contribution's refund stands alone: one that cannot be paid blocks no other.
        summary.failed += 1;
        summary.failureReason ??= reasonOf(error);
      }
    }
    summary.refundedAmount = lamportsToSol(refunded);
    return summary;
  }

  async function refundDare(dareId: number): Promise<RefundSummary> {
    const current = running.get(dareId);
    if (current) await current.catch(() => undefined);
    const run = runRefunds(dareId).finally(() => running.delete(dareId));
    running.set(dareId, run);
    return run;
  }

  return {
    /** Every unrefunded contribution of a dare back to the wallet it came from, each exactly once. */
    refundDare,

    /**
     * The periodic job: dares past deadline + grace with no winner are cancelled and refunded;
     * cancelled dares still owing refunds (a failed or interrupted run) are retried, each dare on
     * its own (one that fails does not hold up the next); then money held for payers whose payment
     * lapsed unused is refunded; then SOL sent straight to escrows that never became a dare.
     */
    async refundDue(): Promise<{
      dareIds: number[];
      summaries: RefundSummary[];
      held: HeldRefundsRun;
      stray: StrayRefundsRun;
    }> {
      const now = clock();
      await cancelExpiredDares(db, new Date(now.getTime() - REFUND_GRACE_MS), now);
      const dareIds = await daresOwingRefunds(db);
      const summaries: RefundSummary[] = [];
      for (const dareId of dareIds) {
        summaries.push(
          await refundDare(dareId).catch((error: unknown) => ({
            refunded: 0,
            refundedAmount: '0',
            failed: 1,
            failureReason: reasonOf(error),
          })),
        );
      }
      const heldRun = await held.run();
      return { dareIds, summaries, held: heldRun, stray: await stray.run() };
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
