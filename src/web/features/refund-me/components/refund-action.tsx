import { useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { lamportsToSol } from '#contract/money';
import { REFUND_ME_MESSAGES, type RefundResponse, type RefundStatus } from '#contract/refund-me';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { configQueryOptions } from '#web/lib/config';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { refreshAfterPayment } from '#web/lib/payments/refresh-after-payment';
import { formatSol } from '#web/lib/utils';
import { type RefundMeDeps, refundedParts, runRefundMe } from '../lib/refund-me-flow';

/** '0.05 SOL back in your wallet, and 0.00172608 SOL of rent returned': the stake and the rent apart. */
export function refundedWords(result: { amount: string; stake?: string }): string {
  const { stake, rent } = refundedParts(result);
  const back = `${formatSol(lamportsToSol(stake))} back in your wallet`;
  return rent > 0n ? `${back}, and ${formatSol(lamportsToSol(rent))} of rent returned` : back;
}

export interface RefundActionProps {
  dareId: number;
  /** The wallet the refund goes back to: the only one that can sign it. */
  walletAddress: string;
  /** Its refund-status answer, while it is known. */
  status: RefundStatus | undefined;
  /** How its refund is built and sent: the signed-in calls, or the by-wallet ones. */
  calls: Pick<RefundMeDeps, 'requestTransaction' | 'send'>;
  /** The wallet that signs; by default the one the session's payments find for `walletAddress`. */
  connectWallet(config: { embeddedChain: boolean }): (walletAddress: string) => Promise<PaymentSigner>;
  /**
   * Whether a wallet with no receipt here says so ('Your wallet has nothing to refund in this dare'):
   * yes where the visitor picked the wallet to ask about it, no for a signed-in account's own.
   */
  sayNothing?: boolean;
  onRefunded?(result: RefundResponse & { stake?: string }): void;
}

/**
 * 'Refund me (x SOL)' for one wallet's receipt in a dare's vault (docs/product.md#dare-details):
 * the wallet signs a `refund` it pays the fee of, the toast names the stake and the rent apart.
 * Before refunds open it says when, as text beside the actions.
 */
export function RefundAction({
  dareId,
  walletAddress,
  status,
  calls,
  connectWallet,
  sayNothing = false,
  onRefunded,
}: RefundActionProps) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (!status) return null;
  if (!status.refundable) {
    const nothing = status.amount === null || status.reason === REFUND_ME_MESSAGES.nothingToRefund;
    return nothing && !sayNothing ? null : (
      <p className="self-center text-sm text-muted-foreground">{status.reason}</p>
    );
  }
  const amount = status.amount;

  async function refund() {
    setBusy(true);
    try {
      const config = await queryClient.ensureQueryData(configQueryOptions());
      const result = await runRefundMe(
        { dareId, walletAddress },
        { ...calls, connectWallet: connectWallet({ embeddedChain: config.embeddedChain }) },
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
      onRefunded?.(result);
    } catch (error) {
      toast({ title: 'Refund failed', description: describePaymentError(error), variant: 'destructive' });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['/api/dares', dareId, 'refund-status'] });
      void refreshAfterPayment(queryClient, walletAddress);
    }
  }

  return (
    <Button variant="outline" disabled={busy} onClick={() => void refund()}>
      <Undo2 aria-hidden />
      {busy ? 'Refunding…' : `${REFUND_ME_MESSAGES.button} (${formatSol(lamportsToSol(BigInt(amount!)))})`}
    </Button>
  );
}
