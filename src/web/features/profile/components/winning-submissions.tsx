import { Link } from 'react-router';
import type { WinningSubmission } from '#contract/claims';
import { JUDGING_MESSAGES } from '#contract/judging';
import { EmptyState } from '#web/components/common/empty-state';
import { PayoutCountdown } from '#web/components/payments/payout-window';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useDareOutcome } from '#web/lib/dare-outcome';
import { formatDayTime } from '#web/lib/dates';
import { useNow } from '#web/lib/use-now';
import { formatSol } from '#web/lib/utils';

/**
 * A prize named on program v2 and waiting out the guardian's window: when it pays, live, and the
 * proposal's transaction (issue 24). Nothing once the window has no proposal for this proof.
 */
function PrizeWindow({ dareId, submissionId }: { dareId: number; submissionId: number }) {
  const proposal = useDareOutcome(dareId).data?.proposal;
  if (!proposal?.winners.some((winner) => winner.submissionId === submissionId)) return null;
  if (proposal.vetoed) return <p className="text-xs text-destructive">{JUDGING_MESSAGES.vetoed}</p>;
  return (
    <p className="text-xs text-muted-foreground">
      <span className="font-medium text-foreground">
        {JUDGING_MESSAGES.winnerNamed(formatDayTime(proposal.executesAt))}
      </span>{' '}
      <PayoutCountdown executesAt={proposal.executesAt} /> ·{' '}
      <Link className="text-primary underline" to={`/tx/${proposal.signature}`}>
        View proposal transaction
      </Link>
    </p>
  );
}

/**
 * When a named prize pays, while its guardian's window runs (issue 37, item 7): the payout is sent
 * by the job at the window's end, so there is nothing to claim until then; null otherwise.
 */
function usePaysOn(dareId: number | null, submissionId: number): string | null {
  const proposal = useDareOutcome(dareId ?? 0, dareId !== null).data?.proposal;
  const now = useNow();
  if (!proposal || proposal.vetoed || !proposal.inWindow) return null;
  if (!proposal.winners.some((winner) => winner.submissionId === submissionId)) return null;
  // The server says by the chain's clock; the page's clock ends it on time between two polls.
  return new Date(proposal.executesAt).getTime() > now.getTime() ? proposal.executesAt : null;
}

/** Claim Prize, or during the window the day it pays instead (no button that can only answer 'wait'). */
function ClaimAction({
  item,
  onClaim,
  claiming,
}: {
  item: WinningSubmission;
  onClaim?: (submissionId: number) => void;
  claiming: number | null;
}) {
  const paysOn = usePaysOn(item.dareId, item.id);
  if (paysOn)
    return (
      <span className="shrink-0 text-right text-xs text-muted-foreground" data-testid="pays-on">
        Paid on {formatDayTime(paysOn)}
      </span>
    );
  return (
    <span className="flex shrink-0 flex-col items-end gap-1">
      <Button size="sm" onClick={() => onClaim?.(item.id)} disabled={!onClaim || claiming !== null}>
        {claiming === item.id ? 'Claiming…' : 'Claim Prize'}
      </Button>
      {/* Why it is off, as text (issue 26): a phone shows no tooltip. */}
      {!onClaim && <span className="text-xs text-muted-foreground">Connect your wallet first</span>}
    </span>
  );
}

/**
 * docs/product.md#claim-status: pending shows 'Claim Prize', paid shows 'Claimed', any other status a red badge.
 * Without `onClaim` (the account's wallet is not connected yet) 'Claim Prize' is shown disabled.
 */
export function WinningSubmissions({
  items,
  onClaim,
  claiming,
}: {
  items: WinningSubmission[] | undefined;
  onClaim?: (submissionId: number) => void;
  claiming: number | null;
}) {
  if (items === undefined) return <Spinner label="Loading winning submissions" />;
  if (items.length === 0) return <EmptyState title="No winning submissions yet" />;
  return (
    // min-w-0: a grid item (the wallet gate around it) would otherwise widen to its longest line.
    <ul className="min-w-0 space-y-2" aria-label="Winning submissions">
      {items.map((item) => (
        <li
          key={item.claimId}
          className="flex items-center justify-between gap-3 rounded-md border p-3 text-sm"
        >
          <div className="min-w-0">
            <p className="truncate font-medium">{item.dareTitle ?? 'Dare'}</p>
            <p className="truncate text-muted-foreground">{item.description}</p>
            <p className="font-semibold text-primary">{formatSol(item.prizeAmount)}</p>
            {item.claimStatus === 'pending' && item.dareId !== null && (
              <PrizeWindow dareId={item.dareId} submissionId={item.id} />
            )}
          </div>
          {item.claimStatus === 'pending' ? (
            <ClaimAction item={item} onClaim={onClaim} claiming={claiming} />
          ) : item.claimStatus === 'paid' ? (
            <Badge variant="secondary">Claimed</Badge>
          ) : (
            <Badge variant="destructive">{item.claimStatus}</Badge>
          )}
        </li>
      ))}
    </ul>
  );
}
