/**
 * The admin panel's requests. The parts, each a module of named functions taking the feature's
 * shared state (`Admin`, admin-deps.ts) first: dare-list.ts (every dare with its refunds),
 * dare-moderation.ts (Activate, Deactivate, Delete), review-submission.ts (a proof's moderation),
 * mark-winner.ts (a community dare's winner). This module only puts them together under the names
 * callers use.
 */
import type { AdminDareListQuery, UpdateSubmissionRequest } from '#contract/admin';
import type { SubmissionStatus } from '#contract/limits';
import { type AdminDeps, adminOf } from './admin-deps';
import { listDares } from './dare-list';
import { deleteDare, setDareStatus } from './dare-moderation';
import { markWinner } from './mark-winner';
import { adminStats, listAdminSubmissions, listAdminUsers } from './repo';
import { reviewSubmission } from './review-submission';

export type { AdminDeps } from './admin-deps';

export function createAdminService(deps: AdminDeps) {
  const admin = adminOf(deps);
  const { db } = admin;
  return {
    stats: () => adminStats(db),
    /** Every dare (major ones included), newest first, each with its landed refunds. */
    listDares: (query: AdminDareListQuery) => listDares(admin, query),
    listSubmissions: (filter: { dareId?: number; status?: SubmissionStatus }) =>
      listAdminSubmissions(db, filter),
    listUsers: (q: string | undefined) => listAdminUsers(db, q),
    /** Deactivate refunds every contribution; Activate is refused once money went back. */
    setDareStatus: (dareId: number, status: 'active' | 'cancelled') => setDareStatus(admin, dareId, status),
    /** Deletes a dare, its contributions refunded first; a dare with unpaid prizes is kept. */
    deleteDare: (dareId: number) => deleteDare(admin, dareId),
    /** Moderation: status and featured flag; approving adds reputation, withdrawing takes it back. */
    updateSubmission: (id: number, body: UpdateSubmissionRequest) => reviewSubmission(admin, id, body),
    /** Community dare: the approved submission wins the whole pool; one winner per dare. */
    markWinner: (submissionId: number, dareId: number) => markWinner(admin, submissionId, dareId),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
