/** Mark Winner on a community dare's v2 vault: the propose to sign, or a signed one relayed. */
import type { MarkWinnerResponse } from '#contract/judging';
import { JUDGING_MESSAGES } from '#contract/judging';
import { badRequest, conflict, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { type Judging, v2Dare } from './judged-vaults';
import { NAMING_MESSAGES } from './naming-messages';
import { offer, winnerOf } from './offer-proposal';
import { syncDare } from './proposal-sync';
import { relay } from './relay-proposal';
import { findDareForNaming, findSubmissionForNaming } from './repo';

/**
 * POST /api/admin/submissions/{id}/mark-winner on a v2 vault (null for a v1 one: the caller
 * keeps today's behaviour).
 */
export async function markWinner(
  judging: Judging,
  user: UserRow,
  submissionId: number,
  body: { dareId: number; signedTransaction?: string },
): Promise<MarkWinnerResponse | null> {
  const { db } = judging;
  const dare = await v2Dare(judging, body.dareId);
  if (!dare) return null;
  if (body.signedTransaction) return relay(judging, user, dare.id, dare.vault, body.signedTransaction);
  const submission = await findSubmissionForNaming(db, submissionId);
  if (!submission) throw notFound(NAMING_MESSAGES.submissionNotFound);
  if (submission.dareId !== dare.id) throw badRequest(NAMING_MESSAGES.wrongDare);
  if (dare.isMajor) throw badRequest(NAMING_MESSAGES.useMajorWinner);
  if (dare.status !== 'active') {
    await syncDare(judging, dare.id);
    const again = await findDareForNaming(db, dare.id);
    if (again?.status === 'completed') throw conflict(JUDGING_MESSAGES.proposalStanding);
    if (again?.status !== 'active') throw conflict(NAMING_MESSAGES.notOpen);
  }
  if (submission.status !== 'approved') throw badRequest(NAMING_MESSAGES.notApproved);
  return offer(judging, user, dare, [await winnerOf(judging, submissionId, dare.id, 'dare_winner')]);
}
