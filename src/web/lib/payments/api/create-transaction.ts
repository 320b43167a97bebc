import type { CreateTransactionRequest, CreateTransactionResponse } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/create-transaction: the program transaction (base64, fee payer `fromWallet`) of a
 * stake creating a dare's vault (`create_vault`, with the dare's `deadline` and `kind`) or of a
 * contribution to a dare's vault (`deposit`).
 */
export function createTransaction(request: CreateTransactionRequest): Promise<CreateTransactionResponse> {
  return apiRequest<CreateTransactionResponse>('POST', '/api/create-transaction', request);
}
