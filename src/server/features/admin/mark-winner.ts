import { ADMIN_MESSAGES } from '#contract/admin';
import type { Claim } from '#contract/claims';
import { solToLamports } from '#contract/money';
import { badRequest, conflict, notFound } from '#server/errors';
import { announceAboutUser } from '#server/features/chat/announce';
import type { Admin } from './admin-deps';
import { requireDare } from './dare-moderation';
import { findSubmissionRow } from './repo';

/** Community dare: the approved submission wins the whole pool; one winner per dare. */
export async function markWinner(admin: Admin, submissionId: number, dareId: number): Promise<Claim> {
  const { db, clock, claims, announce } = admin;
  const submission = await findSubmissionRow(db, submissionId);
  if (!submission) throw notFound(ADMIN_MESSAGES.submissionNotFound);
  if (submission.dareId !== dareId) throw badRequest(ADMIN_MESSAGES.winnerWrongDare);
  const dare = await requireDare(admin, dareId);
  if (dare.isMajor) throw badRequest(ADMIN_MESSAGES.useMajorWinner);
  if (dare.status === 'completed') throw conflict(ADMIN_MESSAGES.winnerAlreadyMarked);
  if (dare.status !== 'active') throw conflict(ADMIN_MESSAGES.dareNotActive);
  if (submission.status !== 'approved') throw badRequest(ADMIN_MESSAGES.winnerNotApproved);
  const claimId = await claims.createWinnerClaim({
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
  return claims.show(claimId);
}
