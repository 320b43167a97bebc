// No zod here: the vote button is on Home (Featured), and zod stays out of the first load.

/** The 403 of a Major Dare vote from an account with no SOL in its pool, and the vote button's hint. */
export const MAJOR_VOTE_NEEDS_PAYMENT =
  "Only backers of the Major Dare can vote on it: add SOL to the Major Dare's pool, then you can vote.";

/** GET /api/voting-rights: what the session user may vote on. */
export interface VotingRights {
  /** Whether the user has SOL in the current Major Dare's pool: a credited payment not refunded. */
  majorDare: boolean;
}
