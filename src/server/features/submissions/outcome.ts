/** A dare's outcome as its page shows it: whether votes still count, its proposal, winners and refunds. */
import { type DareOutcome, SUBMISSION_MESSAGES } from '#contract/submissions';
import { notFound } from '#server/errors';
import { findDareEntry, refundsOf, winnersOf } from './repo';
import type { Submissions } from './submission-deps';
import { votingClosedReason } from './votes';

export async function dareOutcome({ db, judgingOutcome }: Submissions, dareId: number): Promise<DareOutcome> {
  if (!(await findDareEntry(db, dareId))) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
  return {
    votingClosed: await votingClosedReason(db, dareId),
    // First: reading the vault may record a veto, which changes the winners.
    ...(await (judgingOutcome?.(dareId) ?? { proposal: null, judging: null })),
    winners: await winnersOf(db, dareId),
    refunds: await refundsOf(db, dareId),
  };
}
