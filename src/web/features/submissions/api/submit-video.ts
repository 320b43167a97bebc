import type { Submission } from '#contract/submissions';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/dares/{id}/submit {videoUrl, description} → 201 the pending submission. */
export function submitVideo(dareId: number, body: { videoUrl: string; description: string }) {
  return apiRequest<Submission>('POST', `/api/dares/${dareId}/submit`, body);
}
