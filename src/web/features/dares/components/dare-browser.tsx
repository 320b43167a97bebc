import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/common/empty-state';
import { FilterButtons, type FilterOption } from '#web/components/common/filter-buttons';
import { SearchInput, useSearch } from '#web/components/common/search-input';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { type DareListFilter, useDareList } from '../api/list-dares';
import { DareCard } from './dare-card';

const FILTERS: readonly FilterOption<DareListFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
];

/**
 * Filter buttons, the count of dares available, a search box, the dare cards and 'Load more'
 * (GET /api/dares pages through `x-next-cursor`). An empty list invites the user to create a
 * dare, with the page's own button text (`createLabel`).
 */
export function DareBrowser({
  defaultFilter,
  createLabel,
}: {
  defaultFilter: DareListFilter;
  createLabel: string;
}) {
  const [filter, setFilter] = useState<DareListFilter>(defaultFilter);
  const { text: search, setText: setSearch, query: q } = useSearch();
  const list = useDareList({ filter, q });
  const dares = list.data?.pages.flatMap((page) => page.dares) ?? [];
  const count = dares.length;
  const more = list.hasNextPage ? '+' : '';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <FilterButtons label="Filter dares" options={FILTERS} value={filter} onChange={setFilter} />
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {list.isPending ? '…' : `${count}${more}`} {count === 1 && !more ? 'dare' : 'dares'} available
        </p>
      </div>
      <SearchInput label="Search dares" placeholder="Search dares" value={search} onChange={setSearch} />
      {list.isPending ? (
        <Spinner label="Loading dares" />
      ) : list.isError && count === 0 ? (
        <EmptyState icon={AlertTriangle} title="Failed to fetch dares" description={list.error.message} />
      ) : count === 0 ? (
        q ? (
          <EmptyState title="No dares found" description={`Nothing matches "${q}".`} />
        ) : (
          <EmptyState
            title="No dares found"
            description="Be the first to create a dare for the community!"
            action={
              <Button asChild>
                <Link to="/create-dare">{createLabel}</Link>
              </Button>
            }
          />
        )
      ) : (
        <>
          <ul className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-3" aria-label="Dares">
            {dares.map((dare) => (
              <li key={dare.id} className="grid">
                <DareCard dare={dare} />
              </li>
            ))}
          </ul>
          {list.hasNextPage && (
            <div className="flex justify-center">
              <Button
                variant="outline"
                onClick={() => list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
