import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { useStats } from '#web/lib/stats';
import { useDocumentTitle } from '#web/lib/use-document-title';
import { Hero } from './components/hero';
import { HomeTabs } from './components/home-tabs';
import { StatsStrip } from './components/stats-strip';

/**
 * Home. The router composes in the other features' parts so features stay independent:
 * `majorDare` (the current major dare's card), `chat` (the live chat panel), `dares` (filters,
 * count, search, cards, 'Load more') and `featured` (approved videos with votes and the player).
 */
export default function HomePage({
  majorDare,
  chat,
  dares,
  featured,
}: {
  majorDare?: ReactNode;
  chat?: ReactNode;
  dares?: ReactNode;
  featured?: ReactNode;
}) {
  useDocumentTitle(undefined);
  const { data: stats } = useStats();

  return (
    <div className="space-y-8">
      <Hero />
      <StatsStrip stats={stats} />
      {majorDare}
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
