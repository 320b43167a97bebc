/**
 * Paying claims: one claim on demand (Claim Prize), and every judged dare whose payout window has
 * passed (the payout job), each through the dare's `execute` (the payouts feature).
 */
import { CLAIM_MESSAGES, type Claim } from '#contract/claims';
import { JUDGING_MESSAGES } from '#contract/judging';
import { AppError, badRequest, conflict, notFound } from '#server/errors';
import {
  type PayingServiceDeps,
  PayoutNotYetDue,
  type PayoutOutcome,
  TransferAlreadyLive,
  VaultStateError,
} from '#server/features/payouts/service';
import { showClaim } from './claim-view';
import {
  type ClaimRow,
  findClaim,
  findDareEscrow,
  findPayeeWallet,
  pendingClaimsOfJudgedDares,
  releaseClaims,
  setClaimsTransaction,
  startProcessing,
  startProcessingMajor,
} from './repo';

/** '28 Nov 2026, 14:05 UTC': a date every reader of an API message can place. */
function utcMinute(date: Date): string {
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

/** Why a claim that is not pending cannot be claimed: paid, being paid, or failed for good. */
export function notClaimable(claim: ClaimRow): AppError {
  // Failed for good (a retired v1 dare's prize): its reason, not 'being paid out'.
  if (claim.status === 'failed') return conflict(claim.failureReason ?? CLAIM_MESSAGES.escrowRetired);
  return claim.status === 'paid'
    ? new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.alreadyPaid)
    : new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.processing);
}

/**
 * The claims one settle pays, taken from pending to processing (one winner among concurrent
 * callers): the claim itself, or both claims of a major dare once both winners are picked.
 */
async function takeClaims({ db, clock }: PayingServiceDeps, claimId: number): Promise<ClaimRow[]> {
  const found = await findClaim(db, claimId);
  if (!found) throw notFound(CLAIM_MESSAGES.noClaim);
  const { claim } = found;
  if (claim.claimType === 'dare_winner' || claim.dareId === null) {
    const taken = await startProcessing(db, claimId, clock());
    if (!taken) throw notClaimable((await findClaim(db, claimId))!.claim);
    return [taken];
  }
  const taken = await startProcessingMajor(db, claim.dareId, clock());
  if (taken === 'missing') throw conflict(CLAIM_MESSAGES.majorNeedsBothWinners);
  if (taken === 'busy') throw notClaimable((await findClaim(db, claimId))!.claim);
  return taken;
}

/**
 * Pays one claim: pending -> processing, then the dare's `execute` paying the winners its judges
 * named everything the vault holds (a major dare: both winners, 70/30, in one execute whose
 * signature both claims record). A v1 dare's claim is refused (its vault is retired).
 */
export async function payClaim(deps: PayingServiceDeps, claimId: number): Promise<Claim> {
  const { db, clock, payouts } = deps;
  const taken = await takeClaims(deps, claimId);
  const ids = taken.map((claim) => claim.id);
  let outcome: PayoutOutcome;
  try {
    const winners: string[] = [];
    for (const claim of taken) {
      const wallet = await findPayeeWallet(db, claim.userId);
      if (!wallet) throw badRequest(CLAIM_MESSAGES.noWallet);
      winners.push(wallet);
    }
    const dare = taken[0]!.dareId ? await findDareEscrow(db, taken[0]!.dareId) : undefined;
    if (!dare?.escrowWallet) throw notFound('Dare escrow wallet not found');
    outcome = await payouts.payWinners(
      { claimId, dareId: dare.id, escrowWallet: dare.escrowWallet, winners },
      (tx, signature) => setClaimsTransaction(tx, ids, signature),
    );
  } catch (error) {
    if (error instanceof PayoutNotYetDue) {
      // Nothing was sent: the guardian's window is still open. Say when it pays, not an error.
      await releaseClaims(db, ids, null, clock());
      throw conflict(JUDGING_MESSAGES.paysOn(utcMinute(error.executesAt)), {
        executesAt: error.executesAt.toISOString(),
      });
    }
    if (error instanceof TransferAlreadyLive && error.sameClaim)
      throw new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.processing);
    const reason =
      error instanceof TransferAlreadyLive
        ? CLAIM_MESSAGES.vaultBusy
        : error instanceof VaultStateError
          ? CLAIM_MESSAGES.vaultRefused(error.message)
          : error instanceof AppError
            ? error.message
            : 'The payout could not be prepared';
    // Nothing was recorded or sent: the claims are claimable again.
    await releaseClaims(db, ids, reason, clock());
    if (error instanceof TransferAlreadyLive) throw new AppError('ALREADY_PROCESSED', reason);
    if (error instanceof VaultStateError) throw conflict(reason);
    throw error;
  }
  if (outcome.status === 'failed')
    throw new AppError('TRANSACTION_FAILED', CLAIM_MESSAGES.payoutFailed(outcome.reason), { claimId });
  if (outcome.status === 'unknown')
    throw new AppError('CHAIN_UNAVAILABLE', CLAIM_MESSAGES.processing, { claimId });
  return showClaim(deps, claimId);
}

/**
 * The payout job's part for program v2: every judged dare whose winners wait for their window
 * is paid once the window has passed (the winner's Claim Prize does the same on demand). A
 * dare still in its window is skipped; anything else is left for the next run.
 */
export async function payDueProposals(
  deps: PayingServiceDeps,
): Promise<{ paid: number; failures: string[] }> {
  const run = { paid: 0, failures: [] as string[] };
  const seen = new Set<number>();
  for (const claim of await pendingClaimsOfJudgedDares(deps.db)) {
    if (claim.dareId === null || seen.has(claim.dareId)) continue;
    seen.add(claim.dareId);
    try {
      await payClaim(deps, claim.id);
      run.paid += 1;
    } catch (error) {
      if (error instanceof AppError && error.extra.executesAt !== undefined) continue;
      run.failures.push(`dare ${claim.dareId}: ${(error as Error).message}`);
    }
  }
  return run;
}
