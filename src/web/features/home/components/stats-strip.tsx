import { Coins, Flame, Trophy, Users } from 'lucide-react';
import type { Stats } from '#contract/stats';
import { StatTile } from '#web/components/common/stat-tile';
import { formatSol } from '#web/lib/utils';

/** The stats (docs/product.md#derived-shapes), as GET /api/stats answers it. */
export type PlatformStats = Stats;

/** Shows zeros until the stats arrive (`stats` undefined). */
export function StatsStrip({ stats }: { stats: PlatformStats | undefined }) {
  return (
    <section aria-label="Platform stats" className="grid grid-cols-2 gap-3 md:grid-cols-4">
      <StatTile label="Total Dares" value={stats?.totalDares} icon={Flame} />
      <StatTile label="Active Dares" value={stats?.activeDares} icon={Trophy} />
      <StatTile
        label="Total Rewards"
        value={stats && formatSol(stats.totalRewards)}
        placeholder="0 SOL"
        icon={Coins}
      />
      <StatTile label="Daredevils" value={stats?.daredevils} icon={Users} />
    </section>
  );
}
