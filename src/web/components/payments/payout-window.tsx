import { Hourglass, ShieldX } from 'lucide-react';
import { Link } from 'react-router';
import { type DareProposal, JUDGING_MESSAGES, type ProposalWinner } from '#contract/judging';
import { countdownLabel, formatDayTime } from '#web/lib/dates';
import { useNow } from '#web/lib/use-now';
import { formatSol, shortAddress } from '#web/lib/utils';

/**
 * '(in 23h 59m 58s) unless vetoed', live, after 'will be paid on {date}'; once the window has
 * passed, that the payout is being sent.
 */
export function PayoutCountdown({ executesAt }: { executesAt: string }) {
  const now = useNow();
  const passed = new Date(executesAt).getTime() <= now.getTime();
  return (
    <span className="tabular-nums" aria-live="off">
      {passed
        ? 'Window over: the payout is on its way'
        : `(in ${countdownLabel(executesAt, now)}) unless vetoed`}
    </span>
  );
}

/**
 * A proposal as everyone sees it (issue 24): 'Winner named — will be paid on 28 Nov 14:05' with a live
 * countdown, who gets what, the propose transaction and each winning proof's fingerprint; or
 * 'Vetoed by the guardian' once vetoed, judging starting again.
 */
export function PayoutWindowNote({
  proposal,
  nameOf,
  proofHashOf,
}: {
  proposal: DareProposal;
  /** The winner's username, when the page knows it. */
  nameOf?: (winner: ProposalWinner) => string | undefined;
  /** The winning proof's fingerprint (SHA-256 hex), when the page knows it. */
  proofHashOf?: (winner: ProposalWinner) => string | null | undefined;
}) {
  if (proposal.vetoed)
    return (
      <div role="status" aria-label="Payout proposal" className="space-y-1 rounded-lg border p-3 text-sm">
        <p className="flex items-center gap-2 font-semibold">
          <ShieldX className="size-4 text-destructive" aria-hidden />
          {JUDGING_MESSAGES.vetoed}
        </p>
        <p className="text-muted-foreground">Nothing was paid; the judges name a winner again.</p>
      </div>
    );
  return (
    <div
      role="status"
      aria-label="Payout proposal"
      className="space-y-2 rounded-lg border border-primary/50 bg-primary/10 p-3 text-sm"
    >
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Hourglass className="size-4 text-primary" aria-hidden />
        <span className="font-semibold">
          {JUDGING_MESSAGES.winnerNamed(formatDayTime(proposal.executesAt))}
        </span>
        <span className="text-muted-foreground">
          <PayoutCountdown executesAt={proposal.executesAt} />
        </span>
      </p>
      <ul className="space-y-1" aria-label="Named winners">
        {proposal.winners.map((winner) => {
          const hash = proofHashOf?.(winner);
          return (
            <li key={`${winner.walletAddress}:${winner.submissionId}`} className="break-words">
              <span className="font-medium">{nameOf?.(winner) ?? shortAddress(winner.walletAddress)}</span>:{' '}
              {formatSol(winner.amount)}
              {hash && (
                <span className="block text-xs text-muted-foreground">
                  Proof fingerprint <span className="font-mono break-all">{hash}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-muted-foreground">
        The guardian can veto it until then.{' '}
        <Link className="font-medium text-primary underline" to={`/tx/${proposal.signature}`}>
          View proposal transaction
        </Link>
      </p>
    </div>
  );
}
