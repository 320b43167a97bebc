import { CLAIM_MESSAGES, type Claim, type ClaimType } from '#contract/claims';
import { lamportsToSol, solToLamports } from '#contract/money';
import { violatedConstraint } from '#server/db/errors';
import type { UserRow } from '#server/features/auth/user';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { type PayingServiceDeps, type PayoutsService, TransferAlreadyLive } from '../payouts/service';
import {
  type ClaimRow,
  completeDare,
  findClaim,
  findClaimsForSubmission,
  findDareEscrow,
  findPayeeWallet,
  insertPendingClaim,
  listUserClaims,
  listWinningSubmissions,
  markSubmissionWinner,
  releaseClaim,
  releaseOrphanedClaims,
  setClaimTransaction,
  startProcessing,
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

export function createClaimsService({ db, chain, clock, payouts }: PayingServiceDeps) {
  const show = async (id: number): Promise<Claim> => {
    const row = (await findClaim(db, id))!;
    return toClaim(row.claim, row.dareTitle, chain.explorerUrlTemplate);
  };

  function notClaimable(claim: ClaimRow): AppError {
    return claim.status === 'paid'
      ? new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.alreadyPaid)
      : new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.processing);
  }

  async function releaseUnsent(claimId: number, reason: string) {
    await releaseClaim(db, claimId, reason, clock());
  }

  /**
   * Pays one claim: pending -> processing (one winner among concurrent callers), then a transfer
   * from the dare's escrow to the winner's registered wallet for the claim's amount.
   */
  async function payClaim(claimId: number): Promise<Claim> {
    const claim = await startProcessing(db, claimId, clock());
    if (!claim) throw notClaimable((await findClaim(db, claimId))!.claim);
    let outcome: Awaited<ReturnType<PayoutsService['pay']>>;
    try {
      const wallet = await findPayeeWallet(db, claim.userId);
      const dare = claim.dareId ? await findDareEscrow(db, claim.dareId) : undefined;
      if (!wallet) throw badRequest(CLAIM_MESSAGES.noWallet);
      if (!dare?.escrowWallet) throw notFound('Dare escrow wallet not found');
      outcome = await payouts.pay(
        {
          target: { purpose: 'claim', claimId },
          dareId: dare.id,
          escrowWallet: dare.escrowWallet,
          recipient: wallet,
          lamports: solToLamports(claim.amount),
        },
        (tx, signature) => setClaimTransaction(tx, claimId, signature),
      );
    } catch (error) {
      if (error instanceof TransferAlreadyLive)
        throw new AppError('ALREADY_PROCESSED', CLAIM_MESSAGES.processing);
      // Nothing was recorded or sent: the claim is claimable again.
      await releaseUnsent(
        claimId,
        error instanceof AppError ? error.message : 'The payout could not be prepared',
      );
      throw error;
    }
    if (outcome.status === 'failed')
      throw new AppError('TRANSACTION_FAILED', CLAIM_MESSAGES.payoutFailed(outcome.reason), { claimId });
    if (outcome.status === 'unknown')
      throw new AppError('CHAIN_UNAVAILABLE', CLAIM_MESSAGES.processing, { claimId });
    return show(claimId);
  }

  /**
   * Records a winner: the dare becomes completed (only from the given statuses, so a refund that
   * cancelled it first wins the race), the submission becomes 'winner', and one pending claim is
   * created for its author. The unique (dare, claim type) index refuses a second winner of a kind.
   */
  async function createWinnerClaim(input: WinnerClaim): Promise<number> {
    if (input.lamports <= 0n) throw new AppError('CONFLICT', 'This dare has no prize pool to pay');
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
      if (!pending) throw notClaimable(mine.find((claim) => claim.status !== 'paid') ?? mine[0]!);
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
