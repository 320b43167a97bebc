import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { DareOutcome } from '#contract/submissions';

/** GET /api/dares/{dareId}/outcome: whether votes still count, and the winners with their payouts. */
export const dareOutcomeKey = (dareId: number) => ['/api/dares', dareId, 'outcome'] as const;

export function useDareOutcome(dareId: number) {
  return useQuery<DareOutcome>({
    queryKey: dareOutcomeKey(dareId),
    refetchInterval: POLL_MS.approvedSubmissions,
  });
}
