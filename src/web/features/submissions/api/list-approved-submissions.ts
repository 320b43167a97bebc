import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { Submission } from '#contract/submissions';

/** GET /api/approved-submissions/{dareId}: what the dare page lists, polled every 5 s. */
export const approvedSubmissionsKey = (dareId: number) => ['/api/approved-submissions', dareId] as const;

export function useApprovedSubmissions(dareId: number) {
  return useQuery<Submission[]>({
    queryKey: approvedSubmissionsKey(dareId),
    refetchInterval: POLL_MS.approvedSubmissions,
  });
}
