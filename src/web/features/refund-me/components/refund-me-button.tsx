import { useQuery } from '@tanstack/react-query';
import { type DarePhase, endedWithoutWinner } from '#contract/dare-status';
import { lazyConnectPaymentWallet } from '#web/lib/payments/lazy-payment-wallet';
import { useAuth } from '#web/lib/session/auth-provider';
import { refundStatusQueryOptions, requestRefundTransaction, sendRefund } from '../api/refund';
import { RefundAction } from './refund-action';

const signedInCalls = { requestTransaction: requestRefundTransaction, send: sendRefund };

/**
 * 'Refund me' on a refunding or overdue dare (docs/product.md#dare-details): for a signed-in
 * payer whose wallet still has a receipt in the dare's vault, the wallet signs a `refund` and the
 * SOL goes back to it. A payer whose refund is not due yet reads when it will be.
 */
export function RefundMeButton({ dare }: { dare: { id: number; phase: DarePhase } }) {
  const { user } = useAuth();
  // The API's `status` reads 'completed' for any dare past its deadline, won or not: the phase tells
  // a dare that ended without a winner (its payers' refund opens a week later) from one that was won.
  const ended = endedWithoutWinner(dare.phase);
  const walletAddress = user?.walletAddress ?? null;
  const status = useQuery({
    ...refundStatusQueryOptions(dare.id, user?.id ?? 0),
    enabled: ended && user !== null && walletAddress !== null,
  });
  if (!walletAddress) return null;
  return (
    <RefundAction
      dareId={dare.id}
      walletAddress={walletAddress}
      status={status.data}
      calls={signedInCalls}
      connectWallet={lazyConnectPaymentWallet}
    />
  );
}
