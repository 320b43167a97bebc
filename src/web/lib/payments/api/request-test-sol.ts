import type { z } from 'zod';
import type { airdropResponseSchema } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

type AirdropResponse = z.infer<typeof airdropResponseSchema>;

/** POST /api/dev/airdrop: test SOL on the embedded chain (404 on a real cluster). */
export async function requestTestSol(
  walletAddress: string,
  amount: string,
): Promise<{ signature: string; balance: bigint }> {
  const answer = await apiRequest<AirdropResponse>('POST', '/api/dev/airdrop', { walletAddress, amount });
  return { signature: answer.signature, balance: BigInt(answer.balance) };
}
