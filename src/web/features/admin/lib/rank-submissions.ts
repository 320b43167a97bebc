import type { AdminSubmission } from '#contract/admin';

/**
 * The submissions that can win a major dare (approved, or already a winner of the other type),
 * in the server's community order: most votes first, then the earliest, then the lowest id. The
 * first one is the only possible community winner.
 */
export function rankEligibleSubmissions(submissions: readonly AdminSubmission[]): AdminSubmission[] {
  return submissions
    .filter((submission) => submission.status === 'approved' || submission.status === 'winner')
    .sort(
      (a, b) =>
        b.votes - a.votes || new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.id - b.id,
    );
}
