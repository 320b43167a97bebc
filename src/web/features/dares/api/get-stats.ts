import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '../../../../contract/limits';
import type { Stats } from '../../../../contract/stats';

/** GET /api/stats, polled every 30 s (spec section 7); shared by Home's strip and Community Dares' tiles. */
export function useStats() {
  return useQuery<Stats>({ queryKey: ['/api/stats'], refetchInterval: POLL_MS.stats });
}
