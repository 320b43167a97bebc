import type { DareRefund, RefundSummary } from '#contract/admin';
import { CLAIM_MESSAGES } from '#contract/claims';
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { JUDGING_MESSAGES } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import { AppError } from '#server/errors';
import {
  type BookedPayment,
  type PayingServiceDeps,
  type PayoutOutcome,
  TransferAlreadyLive,
  VaultStateError,
} from '#server/features/payouts/service';
import {
  cancelExpiredDares,
  countRefundedBy,
  countUnrefundedContributions,
  daresOwingRefunds,
  daresTakingDeposits,
  findDareEscrow,
  findEscrowDareId,
  overdueDaresWithOpenVaults,
  paidDaresWithOpenVaults,
} from './repo/dares';
import { failClaimsOfRetiredDares, retireV1Dares } from './repo/retired-escrows';

const DAY_MS = 24 * 3600 * 1000;

function reasonOf(error: unknown): string {
  if (error instanceof TransferAlreadyLive) return 'Another transaction of this dare is on its way';
  if (error instanceof AppError || error instanceof VaultStateError) return error.message;
  return 'The refund could not be prepared';
}

/** What the job did to finish vaults: records closed after payouts, refunds noticed on chain. */
export interface FinishedVaultsRun {
  closed: number;
  /** Payments out of vaults that someone else sent (a payer's 'Refund me', `npm run refund-dare`). */
  noticed: number;
  failureReasons: string[];
}

export function createRefundsService({ db, clock, payouts }: PayingServiceDeps) {
  /** Only one refund run per vault at a time in this process; the database guards across processes. */
  const running = new Map<string, Promise<unknown>>();

  function once<T>(escrowWallet: string, run: () => Promise<T>): Promise<T> {
    const previous = running.get(escrowWallet) ?? Promise.resolve();
    const next = previous.then(run);
    // What the next caller waits for: this run's end, whatever its outcome (the caller sees that).
    const settled: Promise<unknown> = next
      .catch(() => undefined)
      .finally(() => {
        if (running.get(escrowWallet) === settled) running.delete(escrowWallet);
      });
    running.set(escrowWallet, settled);
    return next;
  }

  /**
   * Every payer of a vault refunded through the program: refunds someone else already sent are
   * booked first (the ledger follows the chain), then `cancel` (when still open) and a `refund`
   * per receipt left. Returns what this call refunded and how the vault stands.
   */
  function refundVault(target: { escrowWallet: string; dareId: number | null }) {
    return once(target.escrowWallet, async () => {
      const noticed = await payouts.noticeVaultPayments(target);
      const { state, outcomes } = await payouts.refundVault(target);
      return { noticed, state, outcomes };
    });
  }

  function failureOf(outcomes: PayoutOutcome[]): string | null {
    for (const outcome of outcomes) {
      if (outcome.status === 'failed') return outcome.reason;
      if (outcome.status === 'unknown') return 'The network has not confirmed the refund yet';
    }
    return null;
  }

  async function refundDare(dareId: number): Promise<RefundSummary> {
    const summary: RefundSummary = {
      refunded: 0,
      refundedAmount: '0',
      failed: 0,
      failureReason: null,
      transfers: [],
    };
    const escrowWallet = await findDareEscrow(db, dareId);
    if (!escrowWallet) return summary;
    const refunds: BookedPayment[] = [];
    try {
      const run = await refundVault({ escrowWallet, dareId });
      for (const outcome of run.outcomes)
        if (outcome.status === 'confirmed')
          refunds.push(...outcome.booked.filter((b) => b.kind === 'refund'));
      summary.failureReason =
        run.state === 'settled'
          ? 'This dare was paid out to its winner: nothing to refund'
          : run.state === 'proposed'
            ? JUDGING_MESSAGES.cannotCancelProposed
            : failureOf(run.outcomes);
    } catch (error) {
      summary.failureReason = reasonOf(error);
    }
    const transfers: DareRefund[] = refunds.map((refund) => ({
      signature: refund.signature,
      amount: lamportsToSol(refund.lamports),
      walletAddress: refund.wallet,
    }));
    summary.transfers = transfers;
    summary.refundedAmount = lamportsToSol(refunds.reduce((sum, refund) => sum + refund.lamports, 0n));
    summary.refunded = await countRefundedBy(db, dareId, [...new Set(refunds.map((r) => r.signature))]);
    summary.failed = await countUnrefundedContributions(db, dareId);
    if (summary.failed === 0) summary.failureReason = null;
    else summary.failureReason ??= 'Some contributions are not refunded yet';
    return summary;
  }

  /**
   * Vaults of ended dares, finished: a paid dare's records left after its payout are closed (their
   * rent returns to whoever paid it), deposits made straight on chain into running dares'
   * vaults are credited, and payments out of overdue dares' vaults that anyone sent are booked.
   */
  async function finishVaults(): Promise<FinishedVaultsRun> {
    const run: FinishedVaultsRun = { closed: 0, noticed: 0, failureReasons: [] };
    for (const dare of await paidDaresWithOpenVaults(db)) {
      try {
        if ((await payouts.closeSettledRecords(dare.escrowWallet)) === 'closed') run.closed += 1;
      } catch (error) {
        run.failureReasons.push(`dare ${dare.id}: ${(error as Error).message}`);
      }
    }
    // Deposits made straight on chain are in the pot: the notice credits them to their payers
    // while the dare runs (decision 058). A day past the deadline covers the last ones.
    for (const dare of await daresTakingDeposits(db, new Date(clock().getTime() - DAY_MS))) {
      try {
        await once(dare.escrowWallet, () =>
          payouts.noticeVaultPayments({ escrowWallet: dare.escrowWallet, dareId: dare.id }),
        );
      } catch (error) {
        run.failureReasons.push(`dare ${dare.id}: ${(error as Error).message}`);
      }
    }
    const cutoff = new Date(clock().getTime() - REFUND_GRACE_MS);
    for (const dare of await overdueDaresWithOpenVaults(db, cutoff)) {
      try {
        const state = await payouts.vaultState(dare.escrowWallet);
        if (state === 'open' || state === 'settled' || state === 'proposed') continue;
        run.noticed += (
          await once(dare.escrowWallet, () =>
            payouts.noticeVaultPayments({ escrowWallet: dare.escrowWallet, dareId: dare.id }),
          )
        ).length;
      } catch (error) {
        run.failureReasons.push(`dare ${dare.id}: ${(error as Error).message}`);
      }
    }
    return run;
  }

  return {
    /** Every payer of a dare's vault back what they put in, each receipt exactly once. */
    refundDare,

    /**
     * payments' RefusedVaults: a vault that will never fund a dare (refused at step 7, or a stake
     * nobody came back for) is cancelled at once and every receipt refunded, each booked. Throws
     * when the chain did not take it all; the payments job asks again (what is done stays done).
     */
    async cancelAndRefund(escrowWallet: string): Promise<void> {
      const dareId = (await findEscrowDareId(db, escrowWallet)) ?? null;
      const run = await refundVault({ escrowWallet, dareId });
      const failure = failureOf(run.outcomes);
      if (failure) throw new AppError('TRANSACTION_FAILED', failure);
    },

    /**
     * The periodic job: every open dare of escrow program v1 is retired (cancelled, its unpaid
     * prizes failed: v1 let the moderator key pay a pool to anyone, docs/decisions/050-retire-v1.md)
     * and refunded; dares past deadline + grace with no winner are cancelled and refunded;
     * cancelled dares still owing refunds (a failed or interrupted run) are retried, each dare on
     * its own (one that fails does not hold up the next); then ended dares' vaults are finished.
     * (Payments nobody finished, and vaults no dare uses, are the payments job's: it hands those
     * vaults to cancelAndRefund.)
     */
    async refundDue(): Promise<{
      /** v1 dares this run retired (their refunds are among `dareIds`). */
      retired: number[];
      dareIds: number[];
      summaries: RefundSummary[];
      finished: FinishedVaultsRun;
    }> {
      const now = clock();
      const retired = await retireV1Dares(db, now);
      await failClaimsOfRetiredDares(db, CLAIM_MESSAGES.escrowRetired, now);
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
      return { retired, dareIds, summaries, finished: await finishVaults() };
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
