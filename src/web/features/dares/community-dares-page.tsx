import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { FilterButtons, type FilterOption } from '../../components/common/filter-buttons';
import { PageHeader } from '../../components/common/page-header';
import { Button } from '../../components/ui/button';
import { type CommunityStats, DareStats } from './components/dare-stats';

type Filter = 'all' | 'active' | 'completed';

const FILTERS: readonly FilterOption<Filter>[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
];

/**
 * /community-dares. GET /api/dares?filter= (major dares left out) plugs in where marked; the
 * tiles are computed from the same list.
 */
export default function CommunityDaresPage() {
  // Spec: the default filter is active.
  const [filter, setFilter] = useState<Filter>('active');
  const stats: CommunityStats | undefined = undefined; // derived from useDares(filter).data

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
      <DareStats stats={stats} />
      <FilterButtons label="Filter dares" options={FILTERS} value={filter} onChange={setFilter} />
      <EmptyState
        title="No dares found"
        description="Be the first to create a dare for the community!"
        action={
          <Button asChild>
            <Link to="/create-dare">Create First Dare</Link>
          </Button>
        }
      />
    </div>
  );
}
