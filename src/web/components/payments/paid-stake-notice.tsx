import { REFUSED_PAYMENT_HOLD_MINUTES } from '#contract/limits';
import type { PaidStake } from '#web/lib/payments/escrow-funding-flow';
import { formatSol } from '#web/lib/utils';

/**
 * Shown when the payment landed but recording it failed: pressing the button again only repeats
 * the record step with the same signature, which the server answers with the same record. A
 * payment the server refused is held that long, then refunded (decision 011).
 */
export function PaidStakeNotice({ paid, what, button }: { paid: PaidStake; what: string; button: string }) {
  return (
    <p role="status" className="rounded-md border border-primary/40 p-3 text-sm">
      Your {what} of {formatSol(paid.stakeAmount)} is already in the escrow (transaction{' '}
      <span className="font-mono">{paid.signature.slice(0, 8)}...</span>). Keep the {what} and press {button}{' '}
      again within {REFUSED_PAYMENT_HOLD_MINUTES} minutes to record it; you will not pay twice. Otherwise it
      returns to your wallet automatically.
    </p>
  );
}
