import { AlertTriangle } from 'lucide-react';
import type { FeePayerStatus as FeePayerStatusType } from '#contract/admin';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { lamportsToSol } from '#contract/money';
import { formatSol } from '#web/lib/utils';

/**
 * The platform fee payer's balance (docs/operations.md, 'Keys'), with a warning below
 * FEE_PAYER_MIN_SOL: from then on users are told DarePool cannot pay network fees, so the
 * operator must fund it.
 */
export function FeePayerStatus({ status }: { status: FeePayerStatusType | undefined }) {
  if (!status) return null;
  const balance = formatSol(lamportsToSol(BigInt(status.balance)));
  const minimum = formatSol(lamportsToSol(BigInt(status.minBalance)));
  return (
    <section
      aria-label="Fee payer"
      className="rounded-lg border bg-card p-4 text-sm"
      data-low={status.low || undefined}
    >
      <p>
        Fee payer <span className="break-all font-mono text-xs">{status.address}</span> holds{' '}
        <strong className="tabular-nums">{balance}</strong> (about {status.payoutsLeft} payouts).
      </p>
      {status.low && (
        <p role="alert" className="mt-2 flex items-start gap-2 font-medium text-destructive">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            Below {minimum}: fund it now. Until then users are told '{FEE_PAYER_MESSAGES.low}'.
          </span>
        </p>
      )}
    </section>
  );
}
