/** A vault's payers refunded through the program: the run itself, and what went wrong in words. */
import { AppError } from '#server/errors';
import { type PayoutOutcome, TransferAlreadyLive, VaultStateError } from '#server/features/payouts/service';
import type { Refunds } from './refunds-deps';
import { findEscrowDareId } from './repo/dares';

/** Why a refund run could not start or finish, from what it threw. */
export function refundFailureReason(error: unknown): string {
  if (error instanceof TransferAlreadyLive) return 'Another transaction of this dare is on its way';
  if (error instanceof AppError || error instanceof VaultStateError) return error.message;
  return 'The refund could not be prepared';
}

/** The first refund the chain did not take, in words; null when all landed. */
export function failureOf(outcomes: PayoutOutcome[]): string | null {
  for (const outcome of outcomes) {
    if (outcome.status === 'failed') return outcome.reason;
    if (outcome.status === 'unknown') return 'The network has not confirmed the refund yet';
  }
  return null;
}

/**
 * Every payer of a vault refunded through the program: refunds someone else already sent are
 * booked first (the ledger follows the chain), then `cancel` (when still open) and a `refund`
 * per receipt left. Returns what this call refunded and how the vault stands.
 */
export function refundVault(
  { payouts, oneRunPerVault }: Refunds,
  target: { escrowWallet: string; dareId: number | null },
) {
  return oneRunPerVault(target.escrowWallet, async () => {
    const noticed = await payouts.noticeVaultPayments(target);
    const { state, outcomes } = await payouts.refundVault(target);
    return { noticed, state, outcomes };
  });
}

/**
 * payments' RefusedVaults: a vault that will never fund a dare (refused at step 7, or a stake
 * nobody came back for) is cancelled at once and every receipt refunded, each booked. Throws
 * when the chain did not take it all; the payments job asks again (what is done stays done).
 */
export async function cancelAndRefund(refunds: Refunds, escrowWallet: string): Promise<void> {
  const dareId = (await findEscrowDareId(refunds.db, escrowWallet)) ?? null;
  const run = await refundVault(refunds, { escrowWallet, dareId });
  const failure = failureOf(run.outcomes);
  if (failure) throw new AppError('TRANSACTION_FAILED', failure);
}
