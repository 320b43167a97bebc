import type { Claim } from '#contract/claims';
import { MAJOR_DARE_MESSAGES, type WinnerType } from '#contract/major-dare';
import { apiRequest } from '#web/lib/api-client';
import { useAdminMutation } from '../hooks/use-admin-mutation';

/** POST /api/admin/major-dare/{id}/winner: the admin's or the community's winner of a major dare. */
export const useSelectMajorWinner = () =>
  useAdminMutation(
    ({
      dareId,
      submissionId,
      winnerType,
    }: {
      dareId: number;
      submissionId: number;
      winnerType: WinnerType;
    }) => apiRequest<Claim>('POST', `/api/admin/major-dare/${dareId}/winner`, { submissionId, winnerType }),
    { success: MAJOR_DARE_MESSAGES.winnerSelected, failure: MAJOR_DARE_MESSAGES.winnerFailed },
  );
