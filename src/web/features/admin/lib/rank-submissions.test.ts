import { describe, expect, it } from 'vitest';
import type { AdminSubmission } from '#contract/admin';
import { rankEligibleSubmissions } from './rank-submissions';

const submission = (id: number, status: AdminSubmission['status'], votes: number, createdAt: string) =>
  ({ id, status, votes, createdAt }) as AdminSubmission;

describe('rankEligibleSubmissions', () => {
  it('keeps approved and winner submissions, most votes first, earliest on a tie', () => {
    const ranked = rankEligibleSubmissions([
      submission(1, 'approved', 2, '2026-11-20T10:00:00Z'),
      submission(2, 'pending', 9, '2026-11-20T09:00:00Z'),
      submission(3, 'approved', 5, '2026-11-21T10:00:00Z'),
      submission(4, 'winner', 5, '2026-11-20T11:00:00Z'),
      submission(5, 'rejected', 7, '2026-11-20T08:00:00Z'),
      submission(6, 'approved', 2, '2026-11-20T10:00:00Z'),
    ]);
    expect(ranked.map((entry) => entry.id)).toEqual([4, 3, 1, 6]);
  });
});
