/** Moderation of a submission: its status and featured flag, the author's reputation and notice. */
import { ADMIN_MESSAGES, type UpdateSubmissionRequest } from '#contract/admin';
import { REPUTATION } from '#contract/limits';
import { notFound } from '#server/errors';
import { announceAboutUser } from '#server/features/chat/announce';
import { notifyProofReviewed } from '#server/features/notifications/emit';
import type { Admin } from './admin-deps';
import { addReputation, getAdminSubmission, lockSubmissionRow, setSubmissionModeration } from './repo';

/** Moderation: status and featured flag; approving adds reputation, withdrawing takes it back. */
export async function reviewSubmission(
  { db, clock, announce, proofChecks }: Admin,
  id: number,
  body: UpdateSubmissionRequest,
) {
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
    // dare: a rejected author may not submit another, submissions/submit-proof.ts).
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
}
