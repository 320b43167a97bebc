/** Whether a user may enter or upload to a dare now: the dare takes submissions, the user has a wallet. */
import { effectiveStatus } from '#contract/dare-rules';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { badRequest, conflict, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { findDareEntry, hasSubmitted } from './repo';
import type { Submissions } from './submission-deps';

/** Only a registered wallet can enter, and only an entrant can be paid. */
export function requireEntrantWallet(user: UserRow): string {
  if (!user.walletAddress) throw badRequest(SUBMISSION_MESSAGES.noWalletToEnter);
  return user.walletAddress;
}

/** The dare, if it takes submissions now; 404 or 409 'Submissions Closed' otherwise. */
export async function requireOpenDare({ db, clock }: Submissions, dareId: number) {
  const dare = await findDareEntry(db, dareId);
  if (!dare) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
  if (effectiveStatus(dare, clock()) !== 'active') throw conflict(SUBMISSION_MESSAGES.submissionsClosed);
  return dare;
}

/** An upload is for an open dare its uploader has not submitted to yet (404, 409 otherwise). */
export async function requireUploadableDare(submissions: Submissions, user: UserRow, dareId: number) {
  const dare = await requireOpenDare(submissions, dareId);
  if (await hasSubmitted(submissions.db, dareId, user.id))
    throw conflict(SUBMISSION_MESSAGES.alreadySubmitted);
  return dare;
}
