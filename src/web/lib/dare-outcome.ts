import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { DareOutcome } from '#contract/submissions';

/**
 * GET /api/dares/{dareId}/outcome: whether votes still count, the winners with their payouts and
 * the refunds. Shared: the submissions show the winners, the dare page the refunds.
 */
export const dareOutcomeKey = (dareId: number) => ['/api/dares', dareId, 'outcome'] as const;

export function useDareOutcome(dareId: number, enabled = true) {
  return useQuery<DareOutcome>({
    queryKey: dareOutcomeKey(dareId),
    refetchInterval: POLL_MS.approvedSubmissions,
    enabled,
  });
}
