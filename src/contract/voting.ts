import { SUBMISSION_LIMITS } from './limits';

// No zod here: the vote button is on Home (Featured), and zod stays out of the first load.

/** The 403 of a Major Dare vote from an account that never paid in, and the vote button's hint. */
export const MAJOR_VOTE_NEEDS_PAYMENT = 'Only backers can vote on the Major Dare: add to any pool to vote';

/**
 * Why a vote button is disabled, short enough to sit beside it on a phone (no tooltip there).
 * The longer sentence, where there is one, heads the dare's list of proofs.
 */
export const VOTE_REASONS = {
  visitor: 'Sign in to vote',
  visitorLine: `Sign in to vote: ${SUBMISSION_LIMITS.votesPerDare} votes per dare`,
  own: 'Your own proof',
  won: 'Won: voting closed',
  notBacker: 'Backers only',
  outOfVotes: 'No votes left',
  voted: 'Voted',
} as const;

/** GET /api/voting-rights: what the session user may vote on. */
export interface VotingRights {
  /** Whether the user made a verified payment into DarePool (a stake or a pool contribution). */
  majorDare: boolean;
}
