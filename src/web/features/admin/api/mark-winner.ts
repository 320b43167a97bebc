import { ADMIN_MESSAGES } from '#contract/admin';
import type { Claim } from '#contract/claims';
import { apiRequest } from '#web/lib/api-client';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/** POST /api/admin/submissions/{id}/mark-winner: a community dare's winner, paid the pool. */
export const useMarkWinner = () =>
  useAdminMutation(
    ({ id, dareId }: { id: number; dareId: number }) =>
      apiRequest<Claim>('POST', `/api/admin/submissions/${id}/mark-winner`, { dareId }),
    { success: ADMIN_MESSAGES.winnerMarked, failure: ADMIN_MESSAGES.winnerFailed },
  );
