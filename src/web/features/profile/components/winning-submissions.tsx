import type { WinningSubmission } from '#contract/claims';
import { EmptyState } from '#web/components/common/empty-state';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { formatSol } from '#web/lib/utils';

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
    <ul className="space-y-2" aria-label="Winning submissions">
      {items.map((item) => (
        <li
          key={item.claimId}
          className="flex items-center justify-between gap-3 rounded-md border p-3 text-sm"
        >
          <div className="min-w-0">
            <p className="truncate font-medium">{item.dareTitle ?? 'Dare'}</p>
            <p className="truncate text-muted-foreground">{item.description}</p>
            <p className="font-semibold text-primary">{formatSol(item.prizeAmount)}</p>
          </div>
          {item.claimStatus === 'pending' ? (
            <Button size="sm" onClick={() => onClaim?.(item.id)} disabled={!onClaim || claiming !== null}>
              {claiming === item.id ? 'Claiming…' : 'Claim Prize'}
            </Button>
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
