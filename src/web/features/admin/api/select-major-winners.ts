import type { SelectMajorWinnersRequest } from '#contract/major-dare';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/admin/major-dare/{id}/winners: both picks of a judged Major Dare. Without
 * `signedTransaction` nothing is recorded and the answer is the propose naming both; with it
 * signed, the picks are recorded and the propose relayed. Read with readNamingAnswer.
 */
export const selectMajorWinners = ({ dareId, ...body }: SelectMajorWinnersRequest & { dareId: number }) =>
  apiRequest<unknown>('POST', `/api/admin/major-dare/${dareId}/winners`, {
    adminSubmissionId: body.adminSubmissionId,
    communitySubmissionId: body.communitySubmissionId,
    ...(body.signedTransaction ? { signedTransaction: body.signedTransaction } : {}),
  });
