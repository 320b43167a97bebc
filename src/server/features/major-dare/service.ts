import type { Claim } from '#contract/claims';
import type { Dare } from '#contract/dares';
import { MAJOR_PRIZE_MAX_SOL_DEFAULT } from '#contract/limits';
import {
  type CreateMajorDareRequest,
  MAJOR_DARE_MESSAGES,
  type MajorDare,
  splitMajorPrize,
  type WinnerType,
} from '#contract/major-dare';
import { solToLamports } from '#contract/money';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { badRequest, conflict, notFound } from '#server/errors';
import { requireWallet, type UserRow } from '#server/features/auth/user';
import { type Announce, announceAboutUser, noAnnouncements } from '#server/features/chat/announce';
import type { ClaimsService } from '#server/features/claims/service';
import { findDare } from '#server/features/dares/dare-view';
import type { CreditPayment } from '#server/features/payments/crediting/credit-payment';
import { holdRefusedPayment } from '#server/features/payments/crediting/hold-refused-payment';
import { currentMajorDare, requireNoLiveMajorDare } from './current';
import { findDarePool, findSubmissionEntry, topVotedSubmission } from './repo';

type CreateBody = Required<Pick<CreateMajorDareRequest, 'difficulty' | 'maxParticipants'>> &
  Omit<CreateMajorDareRequest, 'difficulty' | 'maxParticipants'>;

export function createMajorDareService({
  db,
  clock,
  claims,
  credit,
  announce = noAnnouncements,
  majorPrizeMaxSol = MAJOR_PRIZE_MAX_SOL_DEFAULT,
}: {
  db: Db;
  clock: Clock;
  claims: ClaimsService;
  /** Step 7 (the payments feature): the prize's verified payment opens the dare. */
  credit: CreditPayment;
  announce?: Announce;
  /** MAJOR_PRIZE_MAX_SOL: the largest prize, in SOL. */
  majorPrizeMaxSol?: string;
}) {
  return {
    current: (): Promise<MajorDare> => currentMajorDare(db, clock()),

    /**
     * Creates a major dare from the admin's prize payment, credited like any stake
     * (creditPayment). The same request again answers the same dare; another use of the
     * signature is refused.
     */
    create: (admin: UserRow, body: CreateBody): Promise<{ dare: Dare; created: boolean }> =>
      holdRefusedPayment({ db, clock }, admin, body.transactionSignature, () => create(admin, body)),

    /**
     * 70% to the admin's pick, 30% to the community's (the top-voted eligible submission), in
     * lamports with the remainder to the admin winner. Each winner type once.
     */
    async selectWinner(dareId: number, submissionId: number, winnerType: WinnerType): Promise<Claim> {
      const dare = await findDarePool(db, dareId);
      if (!dare) throw notFound(MAJOR_DARE_MESSAGES.noMajorDare);
      if (!dare.isMajor) throw badRequest(MAJOR_DARE_MESSAGES.notMajor);
      const submission = await findSubmissionEntry(db, submissionId);
      if (!submission || submission.dareId !== dareId) throw notFound('Submission not found');
      if (submission.status !== 'approved' && submission.status !== 'winner')
        throw badRequest(MAJOR_DARE_MESSAGES.notApproved);
      if (winnerType === 'community') {
        const top = await topVotedSubmission(db, dareId);
        if (top?.id !== submissionId) throw conflict(MAJOR_DARE_MESSAGES.notTopVoted);
      }
      const split = splitMajorPrize(solToLamports(dare.totalPool));
      const claimId = await claims.createWinnerClaim({
        dareId,
        submissionId,
        userId: submission.userId,
        claimType: winnerType === 'admin' ? 'major_admin' : 'major_community',
        lamports: winnerType === 'admin' ? split.admin : split.community,
        fromStatuses: ['active', 'completed'],
        now: clock(),
        messages: {
          notOpen: 'This major dare was cancelled',
          taken: MAJOR_DARE_MESSAGES.winnerTypeTaken(winnerType),
        },
      });
      announceAboutUser(db, announce, dareId, submission.userId, (name) =>
        winnerType === 'admin' ? `${name} won the admin's pick!` : `${name} won the community vote!`,
      );
      return claims.show(claimId);
    },
  };

  async function create(admin: UserRow, body: CreateBody): Promise<{ dare: Dare; created: boolean }> {
    const wallet = requireWallet(admin, body.userWallet);
    if (solToLamports(body.prizeAmount) > solToLamports(majorPrizeMaxSol))
      throw badRequest(MAJOR_DARE_MESSAGES.prizeMax(majorPrizeMaxSol));
    await requireNoLiveMajorDare(db, clock(), body.transactionSignature);
    // The deadline is checked against the paid vault (creditPayment): a vault that can never fund
    // this dare is refunded at once.
    const deadline = new Date(body.deadline);
    const { dareId, created } = await credit({
      payer: admin,
      wallet,
      signature: body.transactionSignature,
      escrowWallet: body.escrowWalletAddress,
      lamports: solToLamports(body.prizeAmount),
      amountMismatch: MAJOR_DARE_MESSAGES.prizeMismatch,
      credit: {
        kind: 'stake',
        dare: {
          title: body.title,
          description: body.description,
          difficulty: body.difficulty,
          category: body.category,
          deadline,
          maxParticipants: body.maxParticipants,
          isMajor: true,
        },
        ifEscrowFunded: 'refuse',
      },
    });
    return { dare: (await findDare(db, dareId))!, created };
  }
}

export type MajorDareService = ReturnType<typeof createMajorDareService>;
