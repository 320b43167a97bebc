import type { z } from 'zod';
import type { sendTransactionResponseSchema } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

type SendTransactionResponse = z.infer<typeof sendTransactionResponseSchema>;

/**
 * POST /api/send-transaction: the server relays the signed transaction to its cluster and answers
 * once it is confirmed; a failure is a 400 whose error says why (e.g. insufficient funds).
 */
export async function sendTransaction(signedTransaction: string): Promise<string> {
  const { signature } = await apiRequest<SendTransactionResponse>('POST', '/api/send-transaction', {
    signedTransaction,
  });
  return signature;
}
