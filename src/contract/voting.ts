// No zod here: the vote button is on Home (Featured), and zod stays out of the first load.

/** The 403 of a Major Dare vote from an account that never paid in, and the vote button's hint. */
export const MAJOR_VOTE_NEEDS_PAYMENT =
  'Only backers can vote on the Major Dare: create a dare or add SOL to a pool, then you can vote.';

/** GET /api/voting-rights: what the session user may vote on. */
export interface VotingRights {
  /** Whether the user made a verified payment into DarePool (a stake or a pool contribution). */
  majorDare: boolean;
}
