import { Trophy } from 'lucide-react';
import type { LeaderboardEntry } from '#contract/leaderboard';
import { LEADERBOARD_SIZE } from '#contract/limits';
import { EmptyState } from '#web/components/common/empty-state';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { countOf, formatSol } from '#web/lib/utils';

/** docs/product.md#leaderboard: the top 10 by earnings; `entries` undefined while loading. */
export function TopEarners({ entries }: { entries: LeaderboardEntry[] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Trophy className="size-5 text-primary" aria-hidden /> Top Earners
        </CardTitle>
      </CardHeader>
      <CardContent>
        {entries === undefined ? (
          <div className="space-y-2" aria-busy>
            {Array.from({ length: 3 }, (_, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity.
              <Skeleton key={row} className="h-12" />
            ))}
          </div>
        ) : entries.length === 0 ? (
          <EmptyState title="No winners yet" description="Win a dare to appear here." />
        ) : (
          <ol className="divide-y">
            {entries.slice(0, LEADERBOARD_SIZE).map((entry, index) => (
              <li key={entry.id} className="flex items-center gap-3 py-3">
                <span className="w-6 text-center font-bold text-muted-foreground">{index + 1}</span>
                <span className="min-w-0 flex-1 truncate font-medium">{entry.username}</span>
                <span className="text-sm text-muted-foreground">{countOf(entry.dareWins, 'win')}</span>
                <span className="font-semibold text-primary">{formatSol(entry.totalEarnings)}</span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
