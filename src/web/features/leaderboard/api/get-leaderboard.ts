import { useQuery } from '@tanstack/react-query';
import type { Leaderboard } from '#contract/leaderboard';

/** GET /api/leaderboard through the default query function (docs/product.md#request-conventions: key = path). */
export function useLeaderboard() {
  return useQuery<Leaderboard>({ queryKey: ['/api/leaderboard'], staleTime: 30_000 });
}
