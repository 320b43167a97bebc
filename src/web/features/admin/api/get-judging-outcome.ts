import { useQuery } from '@tanstack/react-query';
import type { DareOutcome } from '#contract/submissions';
import { dareOutcomeKey } from '#web/lib/dare-outcome';

/**
 * The dare's outcome as the admin panel reads it: who judges its vault (null: program v1) and the
 * standing proposal. Not polled: rows of many dares share it, and every action refetches it.
 */
export function useJudgingOutcome(dareId: number) {
  return useQuery<DareOutcome>({ queryKey: dareOutcomeKey(dareId), staleTime: 15_000 });
}
