/** Vaults of ended dares, finished: records closed after payouts, deposits and refunds others sent booked. */
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { DAY_MS } from '#contract/time';
import type { Refunds } from './refunds-deps';
import { daresTakingDeposits, overdueDaresWithOpenVaults, paidDaresWithOpenVaults } from './repo/dares';

/** What the job did to finish vaults: records closed after payouts, refunds noticed on chain. */
export interface FinishedVaultsRun {
  closed: number;
  /** Payments out of vaults that someone else sent (a payer's 'Refund me', `npm run refund-dare`). */
  noticed: number;
  failureReasons: string[];
}

/**
 * Vaults of ended dares, finished: a paid dare's records left after its payout are closed (their
 * rent returns to whoever paid it), deposits made straight on chain into running dares'
 * vaults are credited, and payments out of overdue dares' vaults that anyone sent are booked.
 */
export async function finishVaults({
  db,
  clock,
  payouts,
  oneRunPerVault,
}: Refunds): Promise<FinishedVaultsRun> {
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
      await oneRunPerVault(dare.escrowWallet, () =>
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
        await oneRunPerVault(dare.escrowWallet, () =>
          payouts.noticeVaultPayments({ escrowWallet: dare.escrowWallet, dareId: dare.id }),
        )
      ).length;
    } catch (error) {
      run.failureReasons.push(`dare ${dare.id}: ${(error as Error).message}`);
    }
  }
  return run;
}
