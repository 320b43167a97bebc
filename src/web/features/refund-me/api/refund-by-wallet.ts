import { queryOptions } from '@tanstack/react-query';
import type { RefundResponse, RefundStatus, RefundTransactionResponse } from '#contract/refund-me';
import { apiGet, apiRequest } from '#web/lib/api-client';

/**
 * 'Refund me' by wallet (decision 066): the same three calls as the signed-in one, for a wallet
 * named in the path, with no sign-in. Only that wallet's signature can take its receipt, and only
 * back to itself.
 */
const walletPath = (dareId: number, wallet: string) =>
  `/api/dares/${dareId}/wallets/${encodeURIComponent(wallet)}`;

export const walletRefundStatusQueryOptions = (dareId: number, wallet: string) =>
  queryOptions({
    // Under the signed-in one's key, so one invalidation after a refund reads both again.
    queryKey: ['/api/dares', dareId, 'refund-status', 'wallet', wallet],
    queryFn: ({ signal }) => apiGet<RefundStatus>(`${walletPath(dareId, wallet)}/refund-status`, { signal }),
  });

/** POST /api/dares/{id}/wallets/{wallet}/refund-transaction: its `refund`, the wallet pays the fee. */
export function requestWalletRefundTransaction(
  dareId: number,
  wallet: string,
): Promise<RefundTransactionResponse> {
  return apiRequest<RefundTransactionResponse>('POST', `${walletPath(dareId, wallet)}/refund-transaction`);
}

/** POST /api/dares/{id}/wallets/{wallet}/refund {signedTransaction}: relayed as signed, confirmed, booked. */
export function sendWalletRefund(
  dareId: number,
  wallet: string,
  signedTransaction: string,
): Promise<RefundResponse> {
  return apiRequest<RefundResponse>('POST', `${walletPath(dareId, wallet)}/refund`, { signedTransaction });
}
