import type { Submission } from '#contract/submissions';

/** docs/product.md#dare-details: the author's username, or 'Unknown User' when the account is gone. */
export function authorName(submission: Pick<Submission, 'users'>): string {
  return submission.users?.username || 'Unknown User';
}
