import type { Claim } from '#contract/claims';
import type { Dare } from '#contract/dares';
import { MAJOR_PRIZE_MAX_SOL_DEFAULT } from '#contract/limits';
import {
  type CreateMajorDareRequest,
  MAJOR_DARE_MESSAGES,
  type MajorDare,
  splitMajorPrize,
  WINNER_TYPES,
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
import { findDarePool, findRecordedPicks, findSubmissionEntry, topVotedSubmission } from './repo';

/** A judged Major Dare's two picks: the admin's (70%) and the community's (30%) submission ids. */
export type MajorPicks = Record<WinnerType, number>;

const CLAIM_TYPES = { admin: 'major_admin', community: 'major_community' } as const;
const CANCELLED = 'This major dare was cancelled';

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
    selectWinner: (dareId: number, submissionId: number, winnerType: WinnerType): Promise<Claim> =>
      selectWinner(dareId, submissionId, winnerType),

    /**
     * Both picks of a judged Major Dare checked by selectWinner's rules, recording nothing. A pick
     * already recorded stands as it is (it was checked when recorded); another submission recorded
     * for either prize is a 409, as selectWinner answers.
     */
    async checkPicks(dareId: number, picks: MajorPicks): Promise<void> {
      const recorded = await findRecordedPicks(db, dareId);
      for (const type of WINNER_TYPES) {
        const taken = recorded.find((r) => r.claimType === CLAIM_TYPES[type]);
        if (taken && taken.submissionId !== picks[type])
          throw conflict(MAJOR_DARE_MESSAGES.winnerTypeTaken(type));
        if (!taken) await checkPick(dareId, picks[type], type);
      }
    },

    /**
     * Records both picks (after checkPicks): each once, however many ask at the same time; the
     * same pick already recorded is not recorded again.
     */
    async recordPicks(dareId: number, picks: MajorPicks): Promise<void> {
      for (const type of WINNER_TYPES) {
        if (await isRecorded(dareId, type, picks[type])) continue;
        try {
          await selectWinner(dareId, picks[type], type);
        } catch (error) {
          // A parallel request recorded this very pick first: the same outcome.
          if (!(await isRecorded(dareId, type, picks[type]))) throw error;
        }
      }
    },
  };

  async function isRecorded(dareId: number, type: WinnerType, submissionId: number): Promise<boolean> {
    const recorded = await findRecordedPicks(db, dareId);
    return recorded.some((r) => r.claimType === CLAIM_TYPES[type] && r.submissionId === submissionId);
  }

  /** selectWinner's rules for one pick; the submission and its prize when they hold. */
  async function checkPick(dareId: number, submissionId: number, winnerType: WinnerType) {
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
    return { submission, lamports: winnerType === 'admin' ? split.admin : split.community };
  }

  async function selectWinner(dareId: number, submissionId: number, winnerType: WinnerType): Promise<Claim> {
    const { submission, lamports } = await checkPick(dareId, submissionId, winnerType);
    const claimId = await claims.createWinnerClaim({
      dareId,
      submissionId,
      userId: submission.userId,
      claimType: CLAIM_TYPES[winnerType],
      lamports,
      fromStatuses: ['active', 'completed'],
      now: clock(),
      messages: { notOpen: CANCELLED, taken: MAJOR_DARE_MESSAGES.winnerTypeTaken(winnerType) },
    });
    announceAboutUser(db, announce, dareId, submission.userId, (name) =>
      winnerType === 'admin' ? `${name} won the admin's pick!` : `${name} won the community vote!`,
    );
    return claims.show(claimId);
  }

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
