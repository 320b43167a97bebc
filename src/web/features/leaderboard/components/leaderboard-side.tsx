import { Award, Coins, Trophy } from 'lucide-react';
import type { Leaderboard } from '#contract/leaderboard';
import { StatTile } from '#web/components/common/stat-tile';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { formatSol } from '#web/lib/utils';

/** docs/product.md#leaderboard: total users, total winnings and total wins, over every user (not only the top 10). */
export function QuickStats({ stats }: { stats: Leaderboard['stats'] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Stats</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <StatTile label="Total Users" value={stats?.totalUsers} />
        <StatTile
          label="Total Winnings"
          value={stats && formatSol(stats.totalWinnings)}
          placeholder="0 SOL"
        />
        <StatTile label="Total Wins" value={stats?.totalWins} />
      </CardContent>
    </Card>
  );
}

const CATEGORIES = [
  { key: 'mostWins', label: 'Most Wins', icon: Trophy },
  { key: 'highestEarner', label: 'Highest Earner', icon: Coins },
  { key: 'mostActive', label: 'Most Active', icon: Award },
] as const;

/**
 * The first brief showed the first entry's username in all three (docs/product.md#leaderboard); here each category names its own
 * leader (computed by the server for its measure), or N/A when nobody scores yet.
 */
export function Categories({ categories }: { categories: Leaderboard['categories'] | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Categories</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2">
          {CATEGORIES.map(({ key, label, icon: Icon }) => (
            <div
              key={label}
              className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm"
            >
              <dt className="flex items-center gap-2">
                <Icon className="size-4 text-primary" aria-hidden /> {label}
              </dt>
              <dd className="truncate font-medium">{categories?.[key]?.username ?? 'N/A'}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
