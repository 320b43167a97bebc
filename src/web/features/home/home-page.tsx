import type { ReactNode } from 'react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Hero } from './components/hero';
import { type DareFilter, HomeTabs } from './components/home-tabs';
import { MajorDareCard, type MajorDareSummary } from './components/major-dare-card';
import { type PlatformStats, StatsStrip } from './components/stats-strip';

/** Spec section 7: GET /api/major-dare starts from this until its first answer. */
const NO_MAJOR_DARE: MajorDareSummary = { isActive: false };

/**
 * Home. `chat` is the live chat panel, composed in by the router so features stay independent.
 * The reads plug in where marked: GET /api/stats (30 s), GET /api/major-dare (30 s),
 * GET /api/dares?filter= and GET /api/featured-submissions.
 */
export default function HomePage({ chat }: { chat?: ReactNode }) {
  useDocumentTitle(undefined);
  const [filter, setFilter] = useState<DareFilter>('all');
  const stats: PlatformStats | undefined = undefined; // useStats()
  const majorDare = NO_MAJOR_DARE; // useMajorDare().data
  const dareCount = 0; // useDares(filter).data?.length

  return (
    <div className="space-y-8">
      <Hero />
      <StatsStrip stats={stats} />
      <MajorDareCard majorDare={majorDare} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <HomeTabs filter={filter} onFilterChange={setFilter} dareCount={dareCount} />
        {chat}
      </div>
      <section className="rounded-xl border bg-card p-6 text-center" aria-labelledby="home-cta">
        <h2 id="home-cta" className="text-xl font-semibold">
          Got a dare in mind?
        </h2>
        <p className="mt-1 text-muted-foreground">Stake SOL and challenge the community.</p>
        <Button asChild className="mt-4">
          <Link to="/create-dare">Create Dare</Link>
        </Button>
      </section>
    </div>
  );
}
