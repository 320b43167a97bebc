import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/common/empty-state';
import { FilterButtons, type FilterOption } from '../../../components/common/filter-buttons';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';

export type DareFilter = 'all' | 'active' | 'completed';

const FILTERS: readonly FilterOption<DareFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
];

/**
 * The 'Dares' and 'Featured' tabs. The page owns the filter (it is part of the dares query) and
 * passes the rendered lists; an absent list shows the empty state.
 */
export function HomeTabs({
  filter,
  onFilterChange,
  dareCount,
  dares,
  featured,
}: {
  filter: DareFilter;
  onFilterChange: (filter: DareFilter) => void;
  dareCount: number;
  dares?: ReactNode;
  featured?: ReactNode;
}) {
  return (
    <Tabs defaultValue="dares" className="min-w-0">
      <TabsList>
        <TabsTrigger value="dares">Dares</TabsTrigger>
        <TabsTrigger value="featured">Featured</TabsTrigger>
      </TabsList>
      <TabsContent value="dares" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <FilterButtons label="Filter dares" options={FILTERS} value={filter} onChange={onFilterChange} />
          <p className="text-sm text-muted-foreground">
            {dareCount} {dareCount === 1 ? 'dare' : 'dares'} available
          </p>
        </div>
        {dares ?? (
          <EmptyState
            title="No dares found"
            description="Be the first to create a dare for the community!"
            action={
              <Button asChild>
                <Link to="/create-dare">Create Dare</Link>
              </Button>
            }
          />
        )}
      </TabsContent>
      <TabsContent value="featured">
        {featured ?? (
          <EmptyState
            title="No featured videos yet"
            description="Approved proofs picked by the admins show here, ready for your vote."
          />
        )}
      </TabsContent>
    </Tabs>
  );
}
