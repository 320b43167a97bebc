import type { WinningSubmission } from '../../../../contract/claims';
import { EmptyState } from '../../../components/common/empty-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { formatSol } from '../../../lib/utils';

/** Spec: pending shows 'Claim Prize', paid shows 'Claimed', any other status a red badge. */
export function WinningSubmissions({
  items,
  onClaim,
  claiming,
}: {
  items: WinningSubmission[] | undefined;
  onClaim: (submissionId: number) => void;
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
            <Button size="sm" onClick={() => onClaim(item.id)} disabled={claiming !== null}>
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
