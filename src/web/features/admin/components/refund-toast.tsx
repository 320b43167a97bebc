import type { RefundSummary } from '#contract/admin';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { useConfig } from '#web/lib/config';
import { formatSol } from '#web/lib/utils';
import { describeRefunds } from '../lib/describe-refunds';

/**
 * The Deactivate / Delete toast's account of the money: what went back, and every refund's own
 * transfer with 'View transaction' (a deleted dare's row, which lists them too, is gone). A dare
 * can hold many contributions, so the list scrolls instead of growing the toast past the screen.
 */
function RefundToast({ refunds }: { refunds: RefundSummary }) {
  const { data: config } = useConfig();
  const transfers = refunds.transfers ?? [];
  return (
    <>
      {describeRefunds(refunds)}
      {config && transfers.length > 0 && (
        <ul aria-label="Refunds sent" className="mt-1 max-h-32 space-y-1 overflow-y-auto">
          {transfers.map((transfer) => (
            <li key={transfer.signature}>
              {formatSol(transfer.amount)} back to{' '}
              <span className="font-mono">
                {transfer.walletAddress.slice(0, 4)}…{transfer.walletAddress.slice(-4)}
              </span>
              : <TransactionLink signature={transfer.signature} explorerUrl={config.explorerUrl} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The toast's description, or none when no money moved and nothing failed. */
export function refundToastDescription(refunds: RefundSummary) {
  if (describeRefunds(refunds) === undefined && (refunds.transfers ?? []).length === 0) return undefined;
  return <RefundToast refunds={refunds} />;
}
