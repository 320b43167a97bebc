import {
  ADMIN_MESSAGES,
  type AdminDare,
  type AdminDareListQuery,
  type RefundSummary,
  type UpdateSubmissionRequest,
} from '#contract/admin';
import type { Claim } from '#contract/claims';
import { REPUTATION, type SubmissionStatus } from '#contract/limits';
import { normalizeSol, solToLamports } from '#contract/money';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict, notFound } from '#server/errors';
import { type Announce, announceAboutUser, noAnnouncements } from '#server/features/chat/announce';
import type { ClaimsService } from '#server/features/claims/service';
import { toDare } from '#server/features/dares/dare-view';
import { notifyProofReviewed } from '#server/features/notifications/emit';
import type { RefundsService } from '#server/features/refunds/service';
import {
  type AdminSubmissionRecord,
  addReputation,
  adminStats,
  cancelActiveDare,
  deleteDareAndContributions,
  findDareRow,
  findSubmissionRow,
  getAdminSubmission,
  hasRefunds,
  hasUnpaidClaims,
  listAdminDares,
  listAdminSubmissions,
  listAdminUsers,
  lockSubmissionRow,
  refundsOfDares,
  setOpenDareStatus,
  setSubmissionModeration,
} from './repo';

const NO_REFUNDS: RefundSummary = {
  refunded: 0,
  refundedAmount: '0',
  failed: 0,
  failureReason: null,
  transfers: [],
};

export function createAdminService({
  db,
  clock,
  refunds,
  claims: claimsService,
  announce = noAnnouncements,
  proofChecks,
  assertCancellable = async () => {},
}: {
  db: Db;
  clock: Clock;
  refunds: RefundsService;
  claims: ClaimsService;
  announce?: Announce;
  /** Re-hashes a proof's stored video against its fingerprint (the submissions feature's). */
  proofChecks?: { recheck(submissionId: number): Promise<unknown> };
  /**
   * Refuses (throws) cancelling a dare whose v2 vault has a standing proposal: the program would
   * refuse the cancel, so nothing changes here either (the judging feature; decision 042).
   */
  assertCancellable?: (dareId: number) => Promise<void>;
}) {
  async function requireDare(id: number) {
    const dare = await findDareRow(db, id);
    if (!dare) throw notFound(ADMIN_MESSAGES.dareNotFound);
    return dare;
  }

  return {
    stats: () => adminStats(db),

    /**
     * Every dare (major ones included), newest first, each with its landed refunds: `refunded` is
     * the very rule that refuses Activate (hasRefunds).
     */
    async listDares(query: AdminDareListQuery): Promise<AdminDare[]> {
      const rows = await listAdminDares(db, query);
      const landed = await refundsOfDares(
        db,
        rows.map((row) => row.dare.id),
      );
      return rows.map((row) => {
        const refunds = (landed.get(row.dare.id) ?? []).map((refund) => ({
          ...refund,
          amount: normalizeSol(refund.amount),
        }));
        return { ...toDare(row), refunded: refunds.length > 0, refunds };
      });
    },

    listSubmissions: (filter: {
      dareId?: number;
      status?: SubmissionStatus;
    }): Promise<AdminSubmissionRecord[]> => listAdminSubmissions(db, filter),

    listUsers: (q: string | undefined) => listAdminUsers(db, q),

    /** Deactivate refunds every contribution; Activate is refused once money went back. */
    async setDareStatus(dareId: number, status: 'active' | 'cancelled') {
      const dare = await requireDare(dareId);
      // Says why first: a named winner waiting for its window is what makes the dare unchangeable.
      if (status === 'cancelled') await assertCancellable(dareId);
      if (dare.status === 'completed') throw conflict(ADMIN_MESSAGES.completedDare);
      if (status === 'active' && dare.cancelReason === 'escrow_retired')
        throw conflict(ADMIN_MESSAGES.retiredDare);
      if (status === 'active' && dare.status === 'cancelled' && (await hasRefunds(db, dareId)))
        throw conflict(ADMIN_MESSAGES.refundedDare);
      if (!(await setOpenDareStatus(db, dareId, status, clock())))
        throw conflict(ADMIN_MESSAGES.completedDare);
      if (status === 'active') return { id: dareId, status: 'active' as const, refunds: NO_REFUNDS };
      return { id: dareId, status: 'cancelled' as const, refunds: await refunds.refundDare(dareId) };
    },

    /**
     * Deletes a dare. Money first: a dare still holding contributions is cancelled and refunded,
     * and is deleted only once every refund landed. A dare with unpaid prizes is kept.
     */
    async deleteDare(dareId: number) {
      const dare = await requireDare(dareId);
      await assertCancellable(dareId);
      if (await hasUnpaidClaims(db, dareId)) throw conflict(ADMIN_MESSAGES.unpaidClaims);
      let summary = NO_REFUNDS;
      if (dare.status !== 'completed') {
        await cancelActiveDare(db, dareId, clock());
        summary = await refunds.refundDare(dareId);
        if (summary.failed > 0)
          throw new AppError('CONFLICT', ADMIN_MESSAGES.refundFailed(summary.failureReason ?? 'unknown'), {
            refunds: summary,
          });
      }
      await db.transaction((tx) => deleteDareAndContributions(tx, dareId));
      return { success: true as const, id: dareId, refunds: summary };
    },

    /** Moderation: status and featured flag; approving adds reputation, withdrawing takes it back. */
    async updateSubmission(id: number, body: UpdateSubmissionRequest) {
      const now = clock();
      const approved = await db.transaction(async (tx) => {
        const current = await lockSubmissionRow(tx, id);
        if (!current) throw notFound(ADMIN_MESSAGES.submissionNotFound);
        // A winner keeps its status (its claim depends on it); only the featured flag changes.
        const status = current.status === 'winner' ? 'winner' : body.status;
        const reason = status === 'rejected' ? (body.reason ?? null) : null;
        await setSubmissionModeration(tx, id, {
          status,
          isFeatured: body.is_featured ?? current.isFeatured,
          rejectionReason: reason,
          now,
        });
        // The author hears a review that changed its proof's status (one proof per account and
        // dare: a rejected author may not submit another, submissions/service.ts).
        if ((status === 'approved' || status === 'rejected') && status !== current.status)
          await notifyProofReviewed(tx, { submissionId: id, status, reason, mayResubmit: false, now });
        const delta =
          (status === 'approved' ? REPUTATION.submissionApproved : 0) -
          (current.status === 'approved' ? REPUTATION.submissionApproved : 0);
        if (delta !== 0 && status !== 'winner') await addReputation(tx, current.userId, delta, now);
        return status === 'approved' && current.status !== 'approved' ? current : null;
      });
      if (approved) {
        // Shown to everyone from now on: whether it still matches its fingerprint is read afresh.
        await proofChecks?.recheck(id);
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
      const claimId = await claimsService.createWinnerClaim({
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
