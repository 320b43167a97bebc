import { Coins, Flame, Users, Video } from 'lucide-react';
import type { AdminStats as AdminStatsType } from '#contract/admin';
import { StatTile } from '#web/components/common/stat-tile';
import { formatSol } from '#web/lib/utils';

/** Admin stats (docs/product.md#derived-shapes, GET /api/admin/stats). */
export function AdminStats({ stats }: { stats: AdminStatsType | undefined }) {
  return (
    <section aria-label="Admin stats" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <StatTile label="Total Users" value={stats?.totalUsers} icon={Users} />
      <StatTile
        label="Total Dares"
        value={stats?.totalDares}
        icon={Flame}
        hint={`${stats?.activeDares ?? 0} active`}
      />
      <StatTile
        label="SOL Staked"
        value={stats && formatSol(stats.totalStaked)}
        placeholder="0 SOL"
        icon={Coins}
        hint={`${stats ? formatSol(stats.paidOut) : '0 SOL'} paid out`}
      />
      <StatTile label="Pending Submissions" value={stats?.pendingSubmissions} icon={Video} />
    </section>
  );
}
