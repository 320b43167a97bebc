import { Link } from 'react-router';
import type { ActivityItem } from '#contract/profile';
import { Spinner } from '#web/components/ui/spinner';
import { formatSol } from '#web/lib/utils';

function describe(item: ActivityItem): string {
  const dare = item.dareTitle ?? 'a dare';
  switch (item.type) {
    case 'submission':
      return `Submitted a video to ${dare} (${item.status ?? 'pending'})`;
    case 'vote':
      return `Voted on a submission to ${dare}`;
    case 'contribution':
      if (item.status === 'refunded') return `Refunded ${formatSol(item.amount ?? '0')} from ${dare}`;
      return item.status === 'stake'
        ? `Staked ${formatSol(item.amount ?? '0')} on ${dare}`
        : `Added ${formatSol(item.amount ?? '0')} to ${dare}`;
    case 'claim':
      return `Prize of ${formatSol(item.amount ?? '0')} for ${dare} (${item.status ?? 'pending'})`;
  }
}

/** The first brief's placeholder 'No recent activity' (docs/product.md#profile) becomes the real list; it stays the empty state. */
export function RecentActivity({ items }: { items: ActivityItem[] | undefined }) {
  if (items === undefined) return <Spinner label="Loading activity" />;
  if (items.length === 0) return <p className="text-sm text-muted-foreground">No recent activity</p>;
  return (
    <ul className="divide-y text-sm" aria-label="Recent activity">
      {items.map((item) => (
        <li key={item.key} className="flex items-center justify-between gap-3 py-2">
          <span className="min-w-0 break-words">
            {item.dareId ? <Link to={`/dare/${item.dareId}`}>{describe(item)}</Link> : describe(item)}
            {item.refundSignature && (
              <>
                {' · '}
                <Link className="font-medium text-primary underline" to={`/tx/${item.refundSignature}`}>
                  View refund transaction
                </Link>
              </>
            )}
          </span>
          <time className="shrink-0 text-xs text-muted-foreground" dateTime={item.at}>
            {new Date(item.at).toLocaleDateString()}
          </time>
        </li>
      ))}
    </ul>
  );
}
