import { Coins, Star, Trophy } from 'lucide-react';
import { REPUTATION_EXPLAINED } from '#contract/limits';
import type { PublicUser } from '#contract/users';
import { StatTile } from '#web/components/common/stat-tile';
import { Card, CardContent } from '#web/components/ui/card';
import { formatSol } from '#web/lib/utils';

/** docs/product.md#profile: the username's initial, the wallet address, reputation, wins and total earnings. */
export function ProfileSummary({ user }: { user: PublicUser }) {
  return (
    <>
      <Card>
        <CardContent className="flex flex-wrap items-center gap-4 pt-5">
          <div
            aria-hidden
            className="flex size-16 shrink-0 items-center justify-center rounded-full bg-primary text-2xl font-bold text-primary-foreground"
          >
            {user.username.charAt(0).toUpperCase()}
          </div>
          <div className="min-w-0">
            <p className="text-xl font-semibold">{user.username}</p>
            <p className="break-all font-mono text-xs text-muted-foreground">
              {user.walletAddress ?? 'No wallet connected'}
            </p>
          </div>
        </CardContent>
      </Card>
      <div className="grid gap-3 sm:grid-cols-3">
        <StatTile label="Reputation" value={user.reputation} icon={Star} hint={REPUTATION_EXPLAINED} />
        <StatTile label="Wins" value={user.dareWins} icon={Trophy} />
        <StatTile label="Total Earnings" value={formatSol(user.totalEarnings)} icon={Coins} />
      </div>
    </>
  );
}
