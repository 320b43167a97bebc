import type { Query, QueryClient } from '@tanstack/react-query';
import { balanceQueryKey } from './api/check-balance';

/**
 * Reads a payment changes: dare lists and single dares (whatever their filter part looks like,
 * they all start with '/api/dares') and the stats strip. `keep` spares a query the caller has
 * just written from the server's answer, so it is not fetched again for nothing.
 */
function isDareOrStatsQuery(query: Query, keep?: readonly unknown[]): boolean {
  const [head] = query.queryKey;
  if (typeof head !== 'string') return false;
  if (keep && JSON.stringify(query.queryKey) === JSON.stringify(keep)) return false;
  // A first payment also grants the vote on the Major Dare.
  return head.startsWith('/api/dares') || head.startsWith('/api/stats') || head === '/api/voting-rights';
}

/**
 * After SOL moved: the payer's balance, the dare lists and the stats show the new amounts, and
 * the payer's voting rights are read again.
 */
export async function refreshAfterPayment(
  queryClient: QueryClient,
  walletAddress: string,
  options: { keep?: readonly unknown[] } = {},
): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: balanceQueryKey(walletAddress) }),
    queryClient.invalidateQueries({ predicate: (query) => isDareOrStatsQuery(query, options.keep) }),
  ]);
}
