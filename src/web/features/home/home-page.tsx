import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useStats } from '../dares/api/get-stats';
import { useMajorDare } from '../major-dare/api/get-major-dare';
import { Hero } from './components/hero';
import { HomeTabs } from './components/home-tabs';
import { MajorDareCard } from './components/major-dare-card';
import { StatsStrip } from './components/stats-strip';

/**
 * Home. The router composes in the other features' parts so features stay independent: `chat`
 * (the live chat panel), `dares` (filters, count, search, cards, 'Load more') and `featured`
 * (approved videos with votes and the player).
 */
export default function HomePage({
  chat,
  dares,
  featured,
}: {
  chat?: ReactNode;
  dares?: ReactNode;
  featured?: ReactNode;
}) {
  useDocumentTitle(undefined);
  const { data: stats } = useStats();
  const majorDare = useMajorDare();

  return (
    <div className="space-y-8">
      <Hero />
      <StatsStrip stats={stats} />
      <MajorDareCard majorDare={majorDare} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <HomeTabs dares={dares} featured={featured} />
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
