import type { EnterTransactionResponse } from '#contract/submissions';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/dares/{id}/enter-transaction: the caller's `enter` for the dare's vault, already
 * signed by the platform fee payer, for the wallet to sign (decision 025).
 */
export function requestEntryTransaction(dareId: number): Promise<EnterTransactionResponse> {
  return apiRequest<EnterTransactionResponse>('POST', `/api/dares/${dareId}/enter-transaction`);
}
