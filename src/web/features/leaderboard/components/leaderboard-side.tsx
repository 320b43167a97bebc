import { Award, Coins, Trophy } from 'lucide-react';
import { lamportsToSol, solToLamports } from '../../../../contract/money';
import { StatTile } from '../../../components/common/stat-tile';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatSol } from '../../../lib/utils';
import type { LeaderboardEntry } from '../types';

/** Spec: total users, total winnings and total wins, from the leaderboard's entries. */
export function QuickStats({ entries }: { entries: LeaderboardEntry[] | undefined }) {
  const totalWinnings =
    entries && lamportsToSol(entries.reduce((sum, entry) => sum + solToLamports(entry.totalEarnings), 0n));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Stats</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <StatTile label="Total Users" value={entries?.length} />
        <StatTile
          label="Total Winnings"
          value={totalWinnings && formatSol(totalWinnings)}
          placeholder="0 SOL"
        />
        <StatTile label="Total Wins" value={entries?.reduce((sum, entry) => sum + entry.dareWins, 0)} />
      </CardContent>
    </Card>
  );
}

const CATEGORIES = [
  { label: 'Most Wins', icon: Trophy },
  { label: 'Highest Earner', icon: Coins },
  { label: 'Most Active', icon: Award },
] as const;

/** Spec: every category shows the first entry's username, or N/A. */
export function Categories({ entries }: { entries: LeaderboardEntry[] | undefined }) {
  const leader = entries?.[0]?.username ?? 'N/A';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Categories</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-2">
          {CATEGORIES.map(({ label, icon: Icon }) => (
            <div
              key={label}
              className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm"
            >
              <dt className="flex items-center gap-2">
                <Icon className="size-4 text-primary" aria-hidden /> {label}
              </dt>
              <dd className="truncate font-medium">{leader}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
