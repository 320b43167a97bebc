import { useQuery } from '@tanstack/react-query';
import type { AdminProposal } from '#contract/judging';

export const proposalsKey = ['/api/admin/proposals'] as const;

/**
 * GET /api/admin/proposals: payouts being signed and in their window, soonest first. Polled so a
 * judge sees a colleague's signature and a window that ended without refreshing.
 */
export const useAdminProposals = () =>
  useQuery<AdminProposal[]>({ queryKey: proposalsKey, refetchInterval: 15_000 });
