import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TransactionView } from '#contract/payments';
import { apiGet } from '#web/lib/api-client';

/** GET /api/transactions/{signature}: one confirmed transaction, for the local explorer page. */
export function getTransaction(
  signature: string,
  options?: { signal?: AbortSignal },
): Promise<TransactionView> {
  return apiGet<TransactionView>(`/api/transactions/${encodeURIComponent(signature)}`, options);
}

export const transactionQueryOptions = (signature: string) =>
  queryOptions({
    queryKey: ['/api/transactions', signature],
    queryFn: ({ signal }) => getTransaction(signature, { signal }),
  });

export function useTransaction(signature: string) {
  return useQuery(transactionQueryOptions(signature));
}
