import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { type DarePhase, endedWithoutWinner } from '#contract/dare-status';
import { lamportsToSol } from '#contract/money';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { configQueryOptions } from '#web/lib/config';
import { lazyConnectPaymentWallet } from '#web/lib/payments/lazy-payment-wallet';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { refreshAfterPayment } from '#web/lib/payments/refresh-after-payment';
import { useAuth } from '#web/lib/session/auth-provider';
import { formatSol } from '#web/lib/utils';
import { refundStatusQueryOptions, requestRefundTransaction, sendRefund } from '../api/refund';
import { refundedParts, runRefundMe } from '../lib/refund-me-flow';

/**
 * 'Refund me' on a refunding or overdue dare (docs/product.md#dare-details): for a signed-in
 * payer whose wallet still has a receipt in the dare's vault, the wallet signs a `refund` and the
 * SOL goes back to it. A payer whose refund is not due yet reads when it will be.
 */
export function RefundMeButton({ dare }: { dare: { id: number; phase: DarePhase } }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // The API's `status` reads 'completed' for any dare past its deadline, won or not: the phase tells
  // a dare that ended without a winner (its payers' refund opens a week later) from one that was won.
  const ended = endedWithoutWinner(dare.phase);
  const walletAddress = user?.walletAddress ?? null;
  const status = useQuery({
    ...refundStatusQueryOptions(dare.id, user?.id ?? 0),
    enabled: ended && user !== null && walletAddress !== null,
  });
  if (!walletAddress || !status.data || status.data.amount === null) return null;
  if (!status.data.refundable) {
    return status.data.reason === REFUND_ME_MESSAGES.nothingToRefund ? null : (
      <p className="self-center text-sm text-muted-foreground">{status.data.reason}</p>
    );
  }

  function refundedWords(result: { amount: string; stake?: string }) {
    const { stake, rent } = refundedParts(result);
    const back = `${formatSol(lamportsToSol(stake))} back in your wallet`;
    return rent > 0n ? `${back}, and ${formatSol(lamportsToSol(rent))} of rent returned` : back;
  }

  async function refund() {
    setBusy(true);
    try {
      const config = await queryClient.ensureQueryData(configQueryOptions());
      const result = await runRefundMe(
        { dareId: dare.id, walletAddress: walletAddress! },
        {
          requestTransaction: requestRefundTransaction,
          connectWallet: lazyConnectPaymentWallet({ embeddedChain: config.embeddedChain }),
          send: sendRefund,
        },
      );
      toast({
        title: REFUND_ME_MESSAGES.success,
        description: (
          <span className="grid gap-1">
            <span>{refundedWords(result)}</span>
            <TransactionLink signature={result.signature} explorerUrl={config.explorerUrl} />
          </span>
        ),
      });
    } catch (error) {
      toast({ title: 'Refund failed', description: describePaymentError(error), variant: 'destructive' });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['/api/dares', dare.id, 'refund-status'] });
      void refreshAfterPayment(queryClient, walletAddress!);
    }
  }

  return (
    <Button variant="outline" disabled={busy} onClick={() => void refund()}>
      <Undo2 aria-hidden />
      {busy
        ? 'Refunding…'
        : `${REFUND_ME_MESSAGES.button} (${formatSol(lamportsToSol(BigInt(status.data.amount)))})`}
    </Button>
  );
}
