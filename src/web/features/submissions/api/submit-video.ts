import type { Submission, SubmitVideoRequest } from '#contract/submissions';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/dares/{id}/submit {videoUrl, description, signedEntryTransaction} → 201 the pending
 * submission, once the server relayed the entry and saw it on chain. Without the signed entry
 * only when the user's entry exists already.
 */
export function submitVideo(dareId: number, body: SubmitVideoRequest) {
  return apiRequest<Submission>('POST', `/api/dares/${dareId}/submit`, body);
}
