import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, PageHeader, StatTile } from '../../components/common/page';
import { Button } from '../../components/ui/button';

const FILTERS = ['all', 'active', 'completed'] as const;

export default function CommunityDaresPage() {
  // Spec: the default filter is active.
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('active');
  return (
    <div>
      <PageHeader
        title="Community Dares"
        description="Dares created by the community, with their SOL pools."
      />
      <div className="mb-6 grid gap-3 sm:grid-cols-3">
        <StatTile label="Active Dares" value="0" />
        <StatTile label="Total SOL Pool" value="0 SOL" />
        <StatTile label="Total Participants" value="0" />
      </div>
      <fieldset className="mb-4 flex gap-2">
        <legend className="sr-only">Filter dares</legend>
        {FILTERS.map((value) => (
          <Button
            key={value}
            size="sm"
            className="capitalize"
            variant={filter === value ? 'default' : 'outline'}
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
          >
            {value}
          </Button>
        ))}
      </fieldset>
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
