import { AlertTriangle, Search } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { EmptyState } from '../../../components/common/empty-state';
import { FilterButtons, type FilterOption } from '../../../components/common/filter-buttons';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { type DareListFilter, useDareList } from '../api/list-dares';
import { DareCard } from './dare-card';

const SEARCH_DEBOUNCE_MS = 250;

const FILTERS: readonly FilterOption<DareListFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
];

/**
 * Filter buttons, the count of dares available, a search box, the dare cards and 'Load more'
 * (GET /api/dares pages through `x-next-cursor`). `empty` is what an empty list shows.
 */
export function DareBrowser({ defaultFilter, empty }: { defaultFilter: DareListFilter; empty: ReactNode }) {
  const [filter, setFilter] = useState<DareListFilter>(defaultFilter);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
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
      <div className="relative">
        <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          aria-label="Search dares"
          placeholder="Search dares"
          className="pl-9"
          maxLength={100}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      {list.isPending ? (
        <Spinner label="Loading dares" />
      ) : list.isError && count === 0 ? (
        <EmptyState icon={AlertTriangle} title="Failed to fetch dares" description={list.error.message} />
      ) : count === 0 ? (
        q ? (
          <EmptyState title="No dares found" description={`Nothing matches "${q}".`} />
        ) : (
          empty
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
