/** An admin's Activate, Deactivate and Delete of a dare: money goes back before a dare goes. */
import { ADMIN_MESSAGES, type RefundSummary } from '#contract/admin';
import { AppError, conflict, notFound } from '#server/errors';
import type { Admin } from './admin-deps';
import {
  cancelActiveDare,
  deleteDareAndContributions,
  findDareRow,
  hasRefunds,
  hasUnpaidClaims,
  setOpenDareStatus,
} from './repo';

const NO_REFUNDS: RefundSummary = {
  refunded: 0,
  refundedAmount: '0',
  failed: 0,
  failureReason: null,
  transfers: [],
};

/** The dare; 404 in the admin's words otherwise. */
export async function requireDare({ db }: Admin, id: number) {
  const dare = await findDareRow(db, id);
  if (!dare) throw notFound(ADMIN_MESSAGES.dareNotFound);
  return dare;
}

/** Deactivate refunds every contribution; Activate is refused once money went back. */
export async function setDareStatus(admin: Admin, dareId: number, status: 'active' | 'cancelled') {
  const { db, clock, refunds, assertCancellable } = admin;
  const dare = await requireDare(admin, dareId);
  // Says why first: a named winner waiting for its window is what makes the dare unchangeable.
  if (status === 'cancelled') await assertCancellable(dareId);
  if (dare.status === 'completed') throw conflict(ADMIN_MESSAGES.completedDare);
  if (status === 'active' && dare.cancelReason === 'escrow_retired')
    throw conflict(ADMIN_MESSAGES.retiredDare);
  if (status === 'active' && dare.status === 'cancelled' && (await hasRefunds(db, dareId)))
    throw conflict(ADMIN_MESSAGES.refundedDare);
  if (!(await setOpenDareStatus(db, dareId, status, clock()))) throw conflict(ADMIN_MESSAGES.completedDare);
  if (status === 'active') return { id: dareId, status: 'active' as const, refunds: NO_REFUNDS };
  return { id: dareId, status: 'cancelled' as const, refunds: await refunds.refundDare(dareId) };
}

/**
 * Deletes a dare. Money first: a dare still holding contributions is cancelled and refunded,
 * and is deleted only once every refund landed. A dare with unpaid prizes is kept.
 */
export async function deleteDare(admin: Admin, dareId: number) {
  const { db, clock, refunds, assertCancellable } = admin;
  const dare = await requireDare(admin, dareId);
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
}
