import { useQuery } from '@tanstack/react-query';
import type { VotingRights } from '#contract/voting';
import { apiGet } from '#web/lib/api-client';

/**
 * GET /api/voting-rights for the signed-in user. Refetched when a vote button mounts and after a
 * payment (refresh-after-payment), since a first stake or contribution grants the Major Dare vote.
 */
export const votingRightsKey = (userId: number) => ['/api/voting-rights', { userId }] as const;

export function useVotingRights(userId: number | null, enabled: boolean) {
  return useQuery<VotingRights>({
    queryKey: votingRightsKey(userId ?? 0),
    queryFn: ({ signal }) => apiGet<VotingRights>('/api/voting-rights', { signal }),
    enabled: enabled && userId !== null,
    staleTime: 0,
  });
}
