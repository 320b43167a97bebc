import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { Submission } from '#contract/submissions';
import { apiGet } from '#web/lib/api-client';

/**
 * GET /api/submissions/{dareId}, polled every 5 s: the public ones plus the caller's own of any
 * status, which is how the page knows the user already submitted. The answer depends on who
 * asks, so the user is part of the key (the path stays the one in docs/product.md#dare-and-submission-calls).
 */
export const dareSubmissionsKey = (dareId: number, userId: number | null) =>
  ['/api/submissions', dareId, { userId }] as const;

export function useDareSubmissions(dareId: number, userId: number | null, enabled = true) {
  return useQuery<Submission[]>({
    enabled,
    queryKey: dareSubmissionsKey(dareId, userId),
    queryFn: ({ signal }) => apiGet<Submission[]>(`/api/submissions/${dareId}`, { signal }),
    refetchInterval: POLL_MS.submissions,
  });
}
