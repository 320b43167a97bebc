import { CLAIM_MESSAGES, type Claim, type ClaimType } from '#contract/claims';
import { JUDGING_MESSAGES } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import { violatedConstraint } from '#server/db/errors';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import {
  type PayingServiceDeps,
  PayoutNotYetDue,
  type PayoutOutcome,
  TransferAlreadyLive,
  VaultStateError,
} from '#server/features/payouts/service';
import {
  type ClaimRow,
  completeDare,
  findClaim,
  findClaimsForSubmission,
  findDareEscrow,
  findPayeeWallet,
  insertPendingClaim,
  isJudgedDare,
  isRetiredEscrowDare,
  listUserClaims,
  listWinningSubmissions,
  markSubmissionWinner,
  pendingClaimsOfJudgedDares,
  releaseClaims,
  releaseOrphanedClaims,
  setClaimsTransaction,
  startProcessing,
  startProcessingMajor,
  submissionExists,
  toClaim,
} from './repo';

/** A winner to record: who won with which submission, which prize, from which dare statuses. */
export interface WinnerClaim {
  dareId: number;
  submissionId: number;
  userId: number;
  claimType: ClaimType;
  lamports: bigint;
  fromStatuses: ('active' | 'completed')[];
  now: Date;
  messages: { notOpen: string; taken: string };
}

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

export function createClaimsService({ db, chain, clock, payouts }: PayingServiceDeps) {
  const show = async (id: number): Promise<Claim> => {
    const row = (await findClaim(db, id))!;
    return toClaim(row.claim, row.dareTitle, chain.explorerUrlTemplate);
  };

  function notClaimable(claim: ClaimRow): AppError {
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
  async function takeClaims(claimId: number): Promise<ClaimRow[]> {
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
  async function payClaim(claimId: number): Promise<Claim> {
    const taken = await takeClaims(claimId);
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
    return show(claimId);
  }

  /**
   * The payout job's part for program v2: every judged dare whose winners wait for their window
   * is paid once the window has passed (the winner's Claim Prize does the same on demand). A
   * dare still in its window is skipped; anything else is left for the next run.
   */
  async function payDueProposals(): Promise<{ paid: number; failures: string[] }> {
    const run = { paid: 0, failures: [] as string[] };
    const seen = new Set<number>();
    for (const claim of await pendingClaimsOfJudgedDares(db)) {
      if (claim.dareId === null || seen.has(claim.dareId)) continue;
      seen.add(claim.dareId);
      try {
        await payClaim(claim.id);
        run.paid += 1;
      } catch (error) {
        if (error instanceof AppError && error.extra.executesAt !== undefined) continue;
        run.failures.push(`dare ${claim.dareId}: ${(error as Error).message}`);
      }
    }
    return run;
  }

  /**
   * Records a winner: the dare becomes completed (only from the given statuses, so a refund that
   * cancelled it first wins the race), the submission becomes 'winner', and one pending claim is
   * created for its author. The unique (dare, claim type) index refuses a second winner of a kind.
   */
  async function createWinnerClaim(input: WinnerClaim): Promise<number> {
    if (input.lamports <= 0n) throw new AppError('CONFLICT', 'This dare has no prize pool to pay');
    if (await isRetiredEscrowDare(db, input.dareId)) throw conflict(CLAIM_MESSAGES.escrowRetired);
    try {
      return await db.transaction(async (tx) => {
        if (!(await completeDare(tx, input.dareId, input.fromStatuses, input.now)))
          throw conflict(input.messages.notOpen);
        const claimId = await insertPendingClaim(tx, {
          userId: input.userId,
          amount: lamportsToSol(input.lamports),
          claimType: input.claimType,
          dareId: input.dareId,
          submissionId: input.submissionId,
          now: input.now,
        });
        await markSubmissionWinner(tx, input.submissionId, input.now);
        return claimId;
      });
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (constraint === 'claims_one_per_dare_type' || constraint === 'claims_one_per_submission_type')
        throw conflict(input.messages.taken);
      throw error;
    }
  }

  return {
    payClaim,
    payDueProposals,
    createWinnerClaim,

    releaseOrphanedClaims: () => releaseOrphanedClaims(db, clock()),

    /** POST /api/claims/prize: the caller's pending claim for this submission. */
    async claimPrize(user: UserRow, submissionId: number): Promise<Claim> {
      if (!(await submissionExists(db, submissionId))) throw notFound(CLAIM_MESSAGES.submissionNotFound);
      const all = await findClaimsForSubmission(db, submissionId);
      if (all.length === 0) throw notFound(CLAIM_MESSAGES.noClaim);
      const mine = all.filter((claim) => claim.userId === user.id);
      if (mine.length === 0) throw forbidden(CLAIM_MESSAGES.notYourClaim);
      const pending = mine.find((claim) => claim.status === 'pending');
      if (!pending) {
        // A judged dare pays by itself once its window passes (the job's execute): the winner's
        // claim then answers the paid claim and its transaction, not an error.
        const paid = mine.find((claim) => claim.status === 'paid');
        if (
          paid?.dareId != null &&
          mine.every((claim) => claim.status === 'paid') &&
          (await isJudgedDare(db, paid.dareId))
        )
          return show(paid.id);
        throw notClaimable(mine.find((claim) => claim.status !== 'paid') ?? mine[0]!);
      }
      return payClaim(pending.id);
    },

    async listClaims(user: UserRow): Promise<Claim[]> {
      const rows = await listUserClaims(db, user.id);
      return rows.map((row) => toClaim(row.claim, row.dareTitle, chain.explorerUrlTemplate));
    },

    listWinningSubmissions: (user: UserRow) => listWinningSubmissions(db, user.id),
    show,
  };
}

export type ClaimsService = ReturnType<typeof createClaimsService>;
