import type { EnterTransactionRequest, EnterTransactionResponse } from '#contract/submissions';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/dares/{id}/enter-transaction {videoUrl}: the caller's `enter` for the dare's vault,
 * for the wallet to sign and pay (decision 034); on an escrow v2 vault it carries the fingerprint
 * of the video the proof will name (decision 038), so `videoUrl` must be the one submitted.
 */
export function requestEntryTransaction(
  dareId: number,
  body: EnterTransactionRequest,
): Promise<EnterTransactionResponse> {
  return apiRequest<EnterTransactionResponse>('POST', `/api/dares/${dareId}/enter-transaction`, body);
}
