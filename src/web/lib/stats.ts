import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { Stats } from '#contract/stats';

/**
 * GET /api/stats, polled every 30 s (docs/product.md#request-conventions). Home's strip reads the platform-wide
 * answer; Community Dares reads `community` (`?major=false`), which counts only the dares its
 * list shows: the list hides major dares, so its tiles must too.
 */
export function useStats({ community = false }: { community?: boolean } = {}) {
  return useQuery<Stats>({
    queryKey: [community ? '/api/stats?major=false' : '/api/stats'],
    refetchInterval: POLL_MS.stats,
  });
}
