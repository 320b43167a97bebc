import { and, eq, sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, type RefundSummary, type UpdateSubmissionRequest } from '../../../contract/admin';
import type { Claim } from '../../../contract/claims';
import { solToLamports } from '../../../contract/money';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
import { claims, dareSubmissions, dares, poolContributions, users } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { type Announce, announceAboutUser, noAnnouncements } from '../chat/announce';
import type { ClaimsService } from '../claims/service';
import { findDareRow } from '../dares/repo';
import { REPUTATION } from '../payouts/reputation';
import { hasRefunds } from '../refunds/repo';
import type { RefundsService } from '../refunds/service';
import { findSubmissionRow, getAdminSubmission } from './repo';
import { createWinnerClaim } from './winners';

const NO_REFUNDS: RefundSummary = { refunded: 0, refundedAmount: '0', failed: 0, failureReason: null };

export function createAdminService({
  db,
  clock,
  refunds,
  claims: claimsService,
  announce = noAnnouncements,
}: {
  db: Db;
  clock: Clock;
  refunds: RefundsService;
  claims: ClaimsService;
  announce?: Announce;
}) {
  async function requireDare(id: number) {
    const dare = await findDareRow(db, id);
    if (!dare) throw notFound(ADMIN_MESSAGES.dareNotFound);
    return dare;
  }

  return {
    /** Deactivate refunds every contribution; Activate is refused once money went back. */
    async setDareStatus(dareId: number, status: 'active' | 'cancelled') {
      const dare = await requireDare(dareId);
      if (dare.status === 'completed') throw conflict(ADMIN_MESSAGES.completedDare);
      const now = clock();
      if (status === 'active') {
        if (dare.status === 'cancelled' && (await hasRefunds(db, dareId)))
          throw conflict(ADMIN_MESSAGES.refundedDare);
        const updated = await db
          .update(dares)
          .set({ status: 'active', updatedAt: now })
          .where(and(eq(dares.id, dareId), sql`${dares.status} in ('active', 'cancelled')`))
          .returning({ id: dares.id });
        if (updated.length === 0) throw conflict(ADMIN_MESSAGES.completedDare);
        return { id: dareId, status: 'active' as const, refunds: NO_REFUNDS };
      }
      const updated = await db
        .update(dares)
        .set({ status: 'cancelled', updatedAt: now })
        .where(and(eq(dares.id, dareId), sql`${dares.status} in ('active', 'cancelled')`))
        .returning({ id: dares.id });
      if (updated.length === 0) throw conflict(ADMIN_MESSAGES.completedDare);
      return { id: dareId, status: 'cancelled' as const, refunds: await refunds.refundDare(dareId) };
    },

    /**
     * Deletes a dare. Money first: a dare still holding contributions is cancelled and refunded,
     * and is deleted only once every refund landed. A dare with unpaid prizes is kept.
     */
    async deleteDare(dareId: number) {
      const dare = await requireDare(dareId);
      const unpaid = await db
        .select({ id: claims.id })
        .from(claims)
        .where(and(eq(claims.dareId, dareId), sql`${claims.status} <> 'paid'`));
      if (unpaid.length > 0) throw conflict(ADMIN_MESSAGES.unpaidClaims);
      let summary = NO_REFUNDS;
      if (dare.status !== 'completed') {
        await db
          .update(dares)
          .set({ status: 'cancelled', updatedAt: clock() })
          .where(and(eq(dares.id, dareId), eq(dares.status, 'active')));
        summary = await refunds.refundDare(dareId);
        if (summary.failed > 0)
          throw new AppError('CONFLICT', ADMIN_MESSAGES.refundFailed(summary.failureReason ?? 'unknown'), {
            refunds: summary,
          });
      }
      await db.transaction(async (tx) => {
        // The ledger (append-only, no foreign key) keeps every movement of this dare's money.
        await tx.delete(poolContributions).where(eq(poolContributions.dareId, dareId));
        await tx.delete(dares).where(eq(dares.id, dareId));
      });
      return { success: true as const, id: dareId, refunds: summary };
    },

    /** Moderation: status and featured flag; approving adds reputation, withdrawing takes it back. */
    async updateSubmission(id: number, body: UpdateSubmissionRequest) {
      const now = clock();
      const approved = await db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(dareSubmissions)
          .where(eq(dareSubmissions.id, id))
          .for('update');
        if (!current) throw notFound(ADMIN_MESSAGES.submissionNotFound);
        // A winner keeps its status (its claim depends on it); only the featured flag changes.
        const status = current.status === 'winner' ? 'winner' : body.status;
        await tx
          .update(dareSubmissions)
          .set({ status, isFeatured: body.is_featured ?? current.isFeatured, updatedAt: now })
          .where(eq(dareSubmissions.id, id));
        const delta =
          (status === 'approved' ? REPUTATION.submissionApproved : 0) -
          (current.status === 'approved' ? REPUTATION.submissionApproved : 0);
        if (delta !== 0 && status !== 'winner') {
          await tx
            .update(users)
            .set({ reputation: sql`${users.reputation} + ${delta}`, updatedAt: now })
            .where(eq(users.id, current.userId));
        }
        return status === 'approved' && current.status !== 'approved' ? current : null;
      });
      if (approved) {
        announceAboutUser(
          db,
          announce,
          approved.dareId,
          approved.userId,
          (name) => `New approved submission by ${name}`,
        );
      }
      return (await getAdminSubmission(db, id))!;
    },

    /** Community dare: the approved submission wins the whole pool; one winner per dare. */
    async markWinner(submissionId: number, dareId: number): Promise<Claim> {
      const submission = await findSubmissionRow(db, submissionId);
      if (!submission) throw notFound(ADMIN_MESSAGES.submissionNotFound);
      if (submission.dareId !== dareId) throw badRequest(ADMIN_MESSAGES.winnerWrongDare);
      const dare = await requireDare(dareId);
      if (dare.isMajor) throw badRequest(ADMIN_MESSAGES.useMajorWinner);
      if (dare.status === 'completed') throw conflict(ADMIN_MESSAGES.winnerAlreadyMarked);
      if (dare.status !== 'active') throw conflict(ADMIN_MESSAGES.dareNotActive);
      if (submission.status !== 'approved') throw badRequest(ADMIN_MESSAGES.winnerNotApproved);
      const claimId = await createWinnerClaim(db, {
        dareId,
        submissionId,
        userId: submission.userId,
        claimType: 'dare_winner',
        lamports: solToLamports(dare.totalPool),
        fromStatuses: ['active'],
        now: clock(),
        messages: { notOpen: ADMIN_MESSAGES.winnerAlreadyMarked, taken: ADMIN_MESSAGES.winnerAlreadyMarked },
      });
      announceAboutUser(db, announce, dareId, submission.userId, (name) => `${name} won this dare!`);
      return claimsService.show(claimId);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
