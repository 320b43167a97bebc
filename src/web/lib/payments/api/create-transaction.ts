import type { z } from 'zod';
import type { CreateTransactionResponse, createTransactionRequestSchema } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

export type CreateTransactionRequest = z.infer<typeof createTransactionRequestSchema>;

/**
 * POST /api/create-transaction: the unsigned transfer (base64, fee payer `fromWallet`) of a stake
 * to a reserved escrow or of a contribution to a dare's escrow.
 */
export function createTransaction(request: CreateTransactionRequest): Promise<CreateTransactionResponse> {
  return apiRequest<CreateTransactionResponse>('POST', '/api/create-transaction', request);
}
