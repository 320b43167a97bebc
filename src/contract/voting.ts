import { SUBMISSION_LIMITS } from './limits';

// No zod here: the vote button is on Home (Featured), and zod stays out of the first load.

/**
 * The 403 of a Major Dare vote from an account with no unrefunded SOL in the Major Dare's own pool,
 * and the line above its proofs (issue 26's wording, true to issue 28's rule: only its own pool counts).
 */
export const MAJOR_VOTE_NEEDS_PAYMENT =
  "Only backers can vote on the Major Dare: add to the Major Dare's pool to vote";

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
  /** Whether the user has SOL in the current Major Dare's pool: a credited payment not refunded. */
  majorDare: boolean;
}
