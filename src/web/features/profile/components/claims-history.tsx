import { Link } from 'react-router';
import type { Claim } from '#contract/claims';
import { EmptyState } from '#web/components/common/empty-state';
import { Badge } from '#web/components/ui/badge';
import { Spinner } from '#web/components/ui/spinner';
import { formatSol } from '#web/lib/utils';

const TYPE_LABELS: Record<Claim['claimType'], string> = {
  dare_winner: 'Dare winner',
  major_admin: "Major dare, admin's pick",
  major_community: 'Major dare, community vote',
};

/** Every claim with its status, the reason of a failed payout, and a link to the payout transaction. */
export function ClaimsHistory({ claims }: { claims: Claim[] | undefined }) {
  if (claims === undefined) return <Spinner label="Loading claims" />;
  if (claims.length === 0) return <EmptyState title="No claims yet" />;
  return (
    <ul className="min-w-0 space-y-2" aria-label="Claims history">
      {claims.map((claim) => (
        <li key={claim.id} className="space-y-1 rounded-md border p-3 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="font-semibold text-primary">{formatSol(claim.amount)}</span>
            <Badge
              variant={
                claim.status === 'paid' ? 'secondary' : claim.status === 'pending' ? 'outline' : 'destructive'
              }
            >
              {claim.status}
            </Badge>
          </div>
          <p className="text-muted-foreground">
            {TYPE_LABELS[claim.claimType]}
            {claim.dareTitle ? ` · ${claim.dareTitle}` : ''} ·{' '}
            {new Date(claim.createdAt).toLocaleDateString()}
          </p>
          {claim.failureReason && <p className="text-destructive">{claim.failureReason}</p>}
          {claim.transactionHash && (
            <Link className="font-mono text-xs text-primary underline" to={`/tx/${claim.transactionHash}`}>
              Payout {claim.transactionHash.slice(0, 8)}…
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
