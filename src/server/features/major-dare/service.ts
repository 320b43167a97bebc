import { eq } from 'drizzle-orm';
import type { Claim } from '../../../contract/claims';
import type { Dare } from '../../../contract/dares';
import { DARE_LIMITS, DARE_MESSAGES } from '../../../contract/dares';
import { MAJOR_PRIZE_MAX_SOL_DEFAULT } from '../../../contract/limits';
import {
  type CreateMajorDareRequest,
  MAJOR_DARE_MESSAGES,
  splitMajorPrize,
  type WinnerType,
} from '../../../contract/major-dare';
import { lamportsToSol, solToLamports } from '../../../contract/money';
import { PAYMENT_MESSAGES } from '../../../contract/payments';
import type { Clock } from '../../app';
import type { ChainPort } from '../../chain/port';
import type { Db } from '../../db/client';
import { violatedConstraint } from '../../db/errors';
import { dares, dareWallets, poolContributions } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { findSubmissionRow } from '../admin/repo';
import { createWinnerClaim } from '../admin/winners';
import type { UserRow } from '../auth/repo';
import { type Announce, announceAboutUser, noAnnouncements } from '../chat/announce';
import type { ClaimsService } from '../claims/service';
import { findDareBySignature, findDareRow, getDare } from '../dares/repo';
import { attachLedgerDare } from '../ledger/repo';
import { bookPayment } from '../payments/book-payment';
import { consumeIntent } from '../payments/payment-intents';
import { holdRefusedPayment } from '../payments/refused-payments';
import { requireWallet } from '../payments/service';
import { verifyPayment } from '../payments/verify-payment';
import { topVotedSubmission } from './repo';

const DAY_MS = 24 * 3600 * 1000;

type CreateBody = Required<Pick<CreateMajorDareRequest, 'difficulty' | 'maxParticipants'>> &
  Omit<CreateMajorDareRequest, 'difficulty' | 'maxParticipants'>;

export function createMajorDareService({
  db,
  chain,
  clock,
  claims,
  announce = noAnnouncements,
  majorPrizeMaxSol = MAJOR_PRIZE_MAX_SOL_DEFAULT,
}: {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  claims: ClaimsService;
  announce?: Announce;
  /** MAJOR_PRIZE_MAX_SOL: the largest prize, in SOL. */
  majorPrizeMaxSol?: string;
}) {
  return {
    /**
     * Creates a major dare from the admin's prize payment, verified on chain like any stake
     * (POST /api/dares' pattern): verify, then consume the intent and credit in one transaction.
     * The same request again answers the same dare; another use of the signature is refused.
     */
    create: (admin: UserRow, body: CreateBody): Promise<{ dare: Dare; created: boolean }> =>
      holdRefusedPayment({ db, clock }, admin, body.transactionSignature, () => create(admin, body)),

    /**
     * 70% to the admin's pick, 30% to the community's (the top-voted eligible submission), in
     * lamports with the remainder to the admin winner. Each winner type once.
     */
    async selectWinner(dareId: number, submissionId: number, winnerType: WinnerType): Promise<Claim> {
      const dare = await findDareRow(db, dareId);
      if (!dare) throw notFound(MAJOR_DARE_MESSAGES.noMajorDare);
      if (!dare.isMajor) throw badRequest(MAJOR_DARE_MESSAGES.notMajor);
      const submission = await findSubmissionRow(db, submissionId);
      if (!submission || submission.dareId !== dareId) throw notFound('Submission not found');
      if (submission.status !== 'approved' && submission.status !== 'winner')
        throw badRequest(MAJOR_DARE_MESSAGES.notApproved);
      if (winnerType === 'community') {
        const top = await topVotedSubmission(db, dareId);
        if (top?.id !== submissionId) throw conflict(MAJOR_DARE_MESSAGES.notTopVoted);
      }
      const split = splitMajorPrize(solToLamports(dare.totalPool));
      const claimId = await createWinnerClaim(db, {
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
    const now = clock();
    const deadline = new Date(body.deadline);
    if (deadline <= now)
      throw badRequest(DARE_MESSAGES.deadlinePast, { fields: { deadline: DARE_MESSAGES.deadlinePast } });
    if (deadline.getTime() - now.getTime() > DARE_LIMITS.deadlineMaxDays * DAY_MS)
      throw badRequest(DARE_MESSAGES.deadlineTooFar, {
        fields: { deadline: DARE_MESSAGES.deadlineTooFar },
      });
    const signature = body.transactionSignature;

    const replay = async () => {
      const existing = await findDareBySignature(db, signature);
      if (!existing) return undefined;
      const same =
        existing.isMajor &&
        existing.creatorId === admin.id &&
        existing.escrowWallet === body.escrowWalletAddress;
      if (!same) throw conflict(PAYMENT_MESSAGES.alreadyUsed);
      return { dare: (await getDare(db, existing.id))!, created: false };
    };
    const previous = await replay();
    if (previous) return previous;

    const payment = await verifyPayment(
      { db, rpc: chain.rpc },
      {
        userId: admin.id,
        wallet,
        signature,
        purpose: 'stake',
        escrowWallet: body.escrowWalletAddress,
        now,
      },
    ).catch(async (error) => {
      const again = await replay();
      if (again) return again;
      throw error;
    });
    if ('dare' in payment) return payment;
    if (payment.lamports !== solToLamports(body.prizeAmount))
      throw badRequest(MAJOR_DARE_MESSAGES.prizeMismatch);

    let dareId: number;
    try {
      dareId = await db.transaction(async (tx) => {
        if ((await bookPayment(tx, payment.intent, signature, now)) === 'paid-by-another')
          throw conflict(PAYMENT_MESSAGES.alreadyUsed);
        if (!(await consumeIntent(tx, payment.intent.id, signature, now)))
          throw conflict(PAYMENT_MESSAGES.alreadyUsed);
        const [escrow] = await tx
          .select()
          .from(dareWallets)
          .where(eq(dareWallets.publicKey, payment.intent.escrowWallet))
          .for('update');
        if (!escrow || escrow.dareId !== null) throw conflict(PAYMENT_MESSAGES.alreadyUsed);
        const prize = lamportsToSol(payment.lamports);
        const [dare] = await tx
          .insert(dares)
          .values({
            title: body.title,
            description: body.description,
            creatorId: admin.id,
            stakeAmount: prize,
            totalPool: prize,
            difficulty: body.difficulty,
            category: body.category,
            deadline,
            maxParticipants: body.maxParticipants,
            isMajor: true,
            escrowWallet: payment.intent.escrowWallet,
            transactionSignature: signature,
            network: chain.cluster,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: dares.id });
        await tx
          .update(dareWallets)
          .set({ dareId: dare!.id, status: 'active', expiresAt: null, updatedAt: now })
          .where(eq(dareWallets.publicKey, payment.intent.escrowWallet));
        await tx.insert(poolContributions).values({
          dareId: dare!.id,
          userId: admin.id,
          walletAddress: payment.intent.fromWallet,
          kind: 'stake',
          amount: prize,
          transactionSignature: signature,
          createdAt: now,
        });
        await attachLedgerDare(tx, { signature, escrowWallet: payment.intent.escrowWallet }, dare!.id);
        return dare!.id;
      });
    } catch (error) {
      const constraint = violatedConstraint(error);
      if (
        constraint === 'dares_transaction_signature_unique' ||
        constraint === 'pool_contributions_signature_unique' ||
        constraint === 'payment_intents_signature_unique'
      ) {
        const again = await replay();
        if (again) return again;
        throw conflict(PAYMENT_MESSAGES.alreadyUsed);
      }
      throw error;
    }
    return { dare: (await getDare(db, dareId))!, created: true };
  }
}

export type MajorDareService = ReturnType<typeof createMajorDareService>;
