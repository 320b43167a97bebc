import { queryOptions } from '@tanstack/react-query';
import type { RefundResponse, RefundStatus, RefundTransactionResponse } from '#contract/refund-me';
import { apiGet, apiRequest } from '#web/lib/api-client';

export const refundStatusQueryOptions = (dareId: number, userId: number) =>
  queryOptions({
    // Keyed by user: another sign-in never sees this one's receipt.
    queryKey: ['/api/dares', dareId, 'refund-status', userId],
    queryFn: ({ signal }) => apiGet<RefundStatus>(`/api/dares/${dareId}/refund-status`, { signal }),
  });

/** POST /api/dares/{id}/refund-transaction: the caller's `refund`, their wallet pays its fee. */
export function requestRefundTransaction(dareId: number): Promise<RefundTransactionResponse> {
  return apiRequest<RefundTransactionResponse>('POST', `/api/dares/${dareId}/refund-transaction`);
}

/** POST /api/dares/{id}/refund {signedTransaction}: relayed as signed, confirmed, booked. */
export function sendRefund(dareId: number, signedTransaction: string): Promise<RefundResponse> {
  return apiRequest<RefundResponse>('POST', `/api/dares/${dareId}/refund`, { signedTransaction });
}
