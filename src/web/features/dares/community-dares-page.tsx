import { Link } from 'react-router';
import { PageHeader } from '#web/components/common/page-header';
import { Button } from '#web/components/ui/button';
import { useStats } from '#web/lib/stats';
import { DareBrowser } from './components/dare-browser';
import { DareStats } from './components/dare-stats';

/**
 * /community-dares: the three tiles (GET /api/stats?major=false, polled like Home's) and the
 * community dares (the list never holds major dares, nor do the tiles), active by default.
 */
export default function CommunityDaresPage() {
  const { data: stats } = useStats({ community: true });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Community Dares"
        description="Dares created by the community, with their SOL pools."
        actions={
          <Button asChild>
            <Link to="/create-dare">Create Dare</Link>
          </Button>
        }
      />
      <DareStats
        stats={
          stats && {
            activeDares: stats.activeDares,
            totalPool: stats.totalRewards,
            totalParticipants: stats.totalParticipants,
          }
        }
      />
      <DareBrowser defaultFilter="active" createLabel="Create First Dare" />
    </div>
  );
}
