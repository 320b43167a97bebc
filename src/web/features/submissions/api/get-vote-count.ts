import { useQuery } from '@tanstack/react-query';

/** GET /api/user/{userId}/votes/dare/{dareId} → {voteCount}: the key's parts joined are the path. */
export const voteCountKey = (userId: number, dareId: number) =>
  ['/api/user', userId, 'votes/dare', dareId] as const;

export function useVoteCount(userId: number | null, dareId: number) {
  return useQuery<{ voteCount: number }>({
    queryKey: voteCountKey(userId ?? 0, dareId),
    enabled: userId !== null,
  });
}
