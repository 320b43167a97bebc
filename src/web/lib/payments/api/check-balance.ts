import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { checkBalanceResponseSchema } from '#contract/payments';
import { apiRequest } from '#web/lib/api-client';

type CheckBalanceResponse = z.infer<typeof checkBalanceResponseSchema>;

/** POST /api/check-balance: the wallet's balance on the configured cluster, exact lamports. */
export async function checkBalance(walletAddress: string): Promise<bigint> {
  const { balance } = await apiRequest<CheckBalanceResponse>('POST', '/api/check-balance', { walletAddress });
  return BigInt(balance);
}

/**
 * One key per wallet, so a payment or test SOL refreshes exactly that wallet's balance wherever it
 * shows. A POST, so it has its own queryFn rather than the default GET of the joined key.
 */
export const balanceQueryKey = (walletAddress: string) => ['/api/check-balance', walletAddress] as const;

export const balanceQueryOptions = (walletAddress: string) =>
  queryOptions({ queryKey: balanceQueryKey(walletAddress), queryFn: () => checkBalance(walletAddress) });

export function useBalance(walletAddress: string) {
  return useQuery(balanceQueryOptions(walletAddress));
}
