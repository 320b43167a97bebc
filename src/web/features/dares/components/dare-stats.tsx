import { Coins, Flame, Users } from 'lucide-react';
import { StatTile } from '#web/components/common/stat-tile';
import { formatSol } from '#web/lib/utils';

export interface CommunityStats {
  activeDares: number;
  /** SOL, decimal string. */
  totalPool: string;
  totalParticipants: number;
}

/** Community Dares' three tiles; zeros until the numbers arrive. */
export function DareStats({ stats }: { stats: CommunityStats | undefined }) {
  return (
    <section aria-label="Community stats" className="grid gap-3 sm:grid-cols-3">
      <StatTile label="Active Dares" value={stats?.activeDares} icon={Flame} />
      <StatTile
        label="Total SOL Pool"
        value={stats && formatSol(stats.totalPool)}
        placeholder="0 SOL"
        icon={Coins}
      />
      <StatTile label="Total Participants" value={stats?.totalParticipants} icon={Users} />
    </section>
  );
}
