import { PageHeader } from '../../components/common/page-header';
import { Categories, QuickStats } from './components/leaderboard-side';
import { TopEarners } from './components/top-earners';
import type { LeaderboardEntry } from './types';

/**
 * /leaderboard. GET /api/leaderboard replaces the placeholder below; until then the page shows
 * its empty state, as a fresh install does.
 */
export default function LeaderboardPage() {
  const entries: LeaderboardEntry[] | undefined = []; // useLeaderboard().data
  return (
    <div className="space-y-6">
      <PageHeader title="Leaderboard" description="The daredevils who earned the most." />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <TopEarners entries={entries} />
        <div className="space-y-4">
          <QuickStats entries={entries} />
          <Categories entries={entries} />
        </div>
      </div>
    </div>
  );
}
