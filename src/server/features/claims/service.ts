import { eq } from 'drizzle-orm';
import { CLAIM_MESSAGES, type Claim } from '../../../contract/claims';
import { solToLamports } from '../../../contract/money';
import { claims, dareSubmissions, dares, users } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound } from '../../errors';
import type { UserRow } from '../auth/repo';
import { type PayingServiceDeps, type PayoutsService, TransferAlreadyLive } from '../payouts/service';
import {
  type ClaimRow,
  findClaim,
  findClaimsForSubmission,
  listUserClaims,
  listWinningSubmissions,
  releaseOrphanedClaims,
  startProcessing,
  toClaim,
} from './repo';

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
    await db
      .update(claims)
      .set({ status: 'pending', failureReason: reason, transactionHash: null, updatedAt: clock() })
      .where(eq(claims.id, claimId));
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
      const [owner] = await db.select().from(users).where(eq(users.id, claim.userId));
      const [dare] = claim.dareId ? await db.select().from(dares).where(eq(dares.id, claim.dareId)) : [];
      if (!owner?.walletAddress) throw badRequest(CLAIM_MESSAGES.noWallet);
      if (!dare?.escrowWallet) throw notFound('Dare escrow wallet not found');
      outcome = await payouts.pay(
        {
          target: { purpose: 'claim', claimId },
          dareId: dare.id,
          escrowWallet: dare.escrowWallet,
          recipient: owner.walletAddress,
          lamports: solToLamports(claim.amount),
        },
        async (tx, signature) => {
          await tx.update(claims).set({ transactionHash: signature }).where(eq(claims.id, claimId));
        },
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

  return {
    payClaim,

    releaseOrphanedClaims: () => releaseOrphanedClaims(db, clock()),

    /** POST /api/claims/prize: the caller's pending claim for this submission. */
    async claimPrize(user: UserRow, submissionId: number): Promise<Claim> {
      const [submission] = await db
        .select({ id: dareSubmissions.id })
        .from(dareSubmissions)
        .where(eq(dareSubmissions.id, submissionId));
      if (!submission) throw notFound(CLAIM_MESSAGES.submissionNotFound);
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
