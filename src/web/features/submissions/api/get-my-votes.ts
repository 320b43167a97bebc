import { useQuery } from '@tanstack/react-query';
import type { MyVotes } from '#contract/submissions';
import { apiGet } from '#web/lib/api-client';

/** GET /api/dares/{dareId}/my-votes: the signed-in user's votes on a dare, and which proofs they went to. */
export const myVotesKey = (userId: number, dareId: number) =>
  ['/api/dares', dareId, 'my-votes', { userId }] as const;

export function useMyVotes(userId: number | null, dareId: number) {
  return useQuery<MyVotes>({
    queryKey: myVotesKey(userId ?? 0, dareId),
    queryFn: ({ signal }) => apiGet<MyVotes>(`/api/dares/${dareId}/my-votes`, { signal }),
    enabled: userId !== null,
  });
}
