import { AlertTriangle } from 'lucide-react';
import { EmptyState } from '#web/components/common/empty-state';
import { PageHeader } from '#web/components/common/page-header';
import { useLeaderboard } from './api/get-leaderboard';
import { Categories, QuickStats } from './components/leaderboard-side';
import { TopEarners } from './components/top-earners';

/** /leaderboard: top 10 earners, totals, and the three categories each by its own measure. */
export default function LeaderboardPage() {
  const leaderboard = useLeaderboard();
  const data = leaderboard.data;
  return (
    <div className="space-y-6">
      <PageHeader title="Leaderboard" description="The daredevils who earned the most." />
      {leaderboard.isError ? (
        <EmptyState
          icon={AlertTriangle}
          title="Failed to load the leaderboard"
          description={leaderboard.error.message}
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <TopEarners entries={data?.topEarners} />
          <div className="space-y-4">
            <QuickStats stats={data?.stats} />
            <Categories categories={data?.categories} />
          </div>
        </div>
      )}
    </div>
  );
}
