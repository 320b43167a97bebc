import { Undo2 } from 'lucide-react';
import { Link } from 'react-router';
import { refundsLine, refundsOpenAt } from '#contract/dare-status';
import type { Dare } from '#contract/dares';
import { useDareOutcome } from '#web/lib/dare-outcome';
import { formatSol } from '#web/lib/utils';

const shortAddress = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

/**
 * Where a finished dare's money went when nobody won it (docs/product.md#dare-details): the
 * refund date of a dare that ended without a winner, the refunds of one that gave its SOL back
 * (each with its transaction), or that a cancelled dare refunds its payers, with the reason when it
 * was not the dare's own doing (a retired escrow program: `phaseReason`). A dare with a winner
 * says so in the submissions' winner banner instead.
 */
export function DareMoneyNote({ dare }: { dare: Dare }) {
  const refunded = dare.phase === 'refunded' || dare.phase === 'refunding';
  const outcome = useDareOutcome(dare.id, refunded || dare.phase === 'ended').data;
  if (dare.phase === 'ended' && dare.deadline !== null) {
    // A named winner (a proposal in its window) is shown by the window note, not as 'waiting'.
    const named = outcome?.proposal && !outcome.proposal.vetoed;
    if (outcome === undefined || outcome.winners.length > 0 || named) return null;
    const on = refundsOpenAt(dare.deadline).toLocaleDateString(undefined, { dateStyle: 'long' });
    return (
      <p role="status" aria-label="Where the money goes" className="rounded-lg border bg-card p-3 text-sm">
        {dare.submissionCount === 0
          ? `No winner: the stake is refunded on ${on}`
          : `Ended: waiting for the winner. Without one, the stake is refunded on ${on}`}
      </p>
    );
  }
  if (refunded && dare.refundTotal) {
    return (
      <div
        role="status"
        aria-label="Where the money went"
        className="space-y-2 rounded-lg border bg-card p-3"
      >
        <p className="flex items-center gap-2 text-sm font-semibold">
          <Undo2 className="size-4 text-primary" aria-hidden />
          {refundsLine(dare.refundTotal)}
        </p>
        {dare.phaseReason && <p className="text-sm">{dare.phaseReason}</p>}
        {outcome && outcome.refunds.length > 0 && (
          <ul className="space-y-1 text-sm" aria-label="Refunds">
            {outcome.refunds.map((refund) => (
              <li key={`${refund.signature}:${refund.walletAddress}`} className="flex flex-wrap gap-x-2">
                <span className="break-all">
                  {formatSol(refund.amount)} to {refund.username ?? shortAddress(refund.walletAddress)}
                </span>
                <Link className="font-medium text-primary underline" to={`/tx/${refund.signature}`}>
                  View refund transaction
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  if (dare.phase === 'cancelled') {
    return (
      <p role="status" aria-label="Where the money goes" className="rounded-lg border bg-card p-3 text-sm">
        {dare.phaseReason ?? 'Cancelled: every payer gets their SOL back.'}
      </p>
    );
  }
  return null;
}
