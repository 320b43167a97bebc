/** Votes on submissions: casting one, a voter's own count, and whether votes still decide anything. */
import { SUBMISSION_LIMITS } from '#contract/limits';
import { type MyVotes, SUBMISSION_MESSAGES, type VoteResponse } from '#contract/submissions';
import type { VotingRights } from '#contract/voting';
import type { DbOrTx } from '#server/db/client';
import { violatedConstraint } from '#server/db/errors';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import {
  countVotes,
  findDareEntry,
  findSubmission,
  findVotingState,
  hasMoneyInPool,
  hasVoted,
  insertVote,
  lockVoter,
  votedSubmissionIds,
} from './repo';
import type { Submissions } from './submission-deps';
import { activeMajorDareId } from './submission-lists';

/**
 * Why votes on a dare can no longer change anything, or null while they can: a cancelled dare
 * pays nobody, a community dare's winner is paid from its whole pool, and a major dare's votes
 * only pick its community winner.
 */
export async function votingClosedReason(db: DbOrTx, dareId: number): Promise<string | null> {
  const dare = await findVotingState(db, dareId);
  if (!dare) return null;
  if (dare.status === 'cancelled') return SUBMISSION_MESSAGES.votingClosedCancelled;
  if (dare.winners === 0) return null;
  return dare.isMajor
    ? SUBMISSION_MESSAGES.votingClosedCommunityWinner
    : SUBMISSION_MESSAGES.votingClosedWinner;
}

/**
 * One vote. The voter's user row is locked first, so one user's concurrent votes run one at a
 * time and the 3-per-dare count cannot be raced; one vote per submission is also unique.
 */
export async function vote(
  { db, clock }: Submissions,
  user: UserRow,
  submissionId: number,
): Promise<VoteResponse> {
  try {
    return await db.transaction(async (tx) => {
      await lockVoter(tx, user.id);
      const submission = await findSubmission(tx, submissionId);
      if (!submission) throw notFound(SUBMISSION_MESSAGES.submissionNotFound);
      const closed = await votingClosedReason(tx, submission.dareId);
      if (closed) throw conflict(closed);
      if (submission.status !== 'approved') throw badRequest(SUBMISSION_MESSAGES.notApproved);
      if (submission.userId === user.id) throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.ownSubmission);
      // The Major Dare's community prize follows the votes: only its own backers decide it.
      const dare = await findDareEntry(tx, submission.dareId);
      if (dare?.isMajor && !(await hasMoneyInPool(tx, user.id, submission.dareId)))
        throw new AppError('FORBIDDEN', SUBMISSION_MESSAGES.majorVoteNeedsPayment);
      if (await hasVoted(tx, submissionId, user.id)) throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
      const used = await countVotes(tx, user.id, submission.dareId);
      if (used >= SUBMISSION_LIMITS.votesPerDare) throw conflict(SUBMISSION_MESSAGES.outOfVotes);
      const votes = await insertVote(tx, {
        submissionId,
        userId: user.id,
        dareId: submission.dareId,
        now: clock(),
      });
      return { votes, voteCount: used + 1 };
    });
  } catch (error) {
    if (violatedConstraint(error) === 'submission_votes_one_per_user')
      throw conflict(SUBMISSION_MESSAGES.alreadyVoted);
    throw error;
  }
}

/** How many votes a user has used on a dare: nobody's business but their own. */
export async function votesUsed(
  { db }: Submissions,
  viewer: UserRow,
  userId: number,
  dareId: number,
): Promise<number> {
  if (viewer.id !== userId) throw forbidden(SUBMISSION_MESSAGES.votesNotYours);
  return countVotes(db, userId, dareId);
}

export async function myVotes({ db }: Submissions, user: UserRow, dareId: number): Promise<MyVotes> {
  if (!(await findDareEntry(db, dareId))) throw notFound(SUBMISSION_MESSAGES.dareNotFound);
  const submissionIds = await votedSubmissionIds(db, user.id, dareId);
  return { voteCount: submissionIds.length, submissionIds };
}

/** Whether the user may vote on the current Major Dare: only its backers may. */
export async function votingRights(submissions: Submissions, user: UserRow): Promise<VotingRights> {
  const majorId = await activeMajorDareId(submissions);
  return { majorDare: majorId !== null && (await hasMoneyInPool(submissions.db, user.id, majorId)) };
}
