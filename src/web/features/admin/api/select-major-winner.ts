import type { WinnerType } from '#contract/major-dare';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/admin/major-dare/{id}/winner: records the pick; on a v2 vault the pick completing the
 * pair answers the propose transaction, and the same call with `signedTransaction` relays it.
 */
export const selectMajorWinner = (input: {
  dareId: number;
  submissionId: number;
  winnerType: WinnerType;
  signedTransaction?: string;
}) =>
  apiRequest<unknown>('POST', `/api/admin/major-dare/${input.dareId}/winner`, {
    submissionId: input.submissionId,
    winnerType: input.winnerType,
    ...(input.signedTransaction ? { signedTransaction: input.signedTransaction } : {}),
  });
