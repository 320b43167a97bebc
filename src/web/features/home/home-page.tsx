import { Coins, Crown, Flame, MessageSquare, Trophy, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState, StatTile, useDocumentTitle } from '../../components/common/page';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { cn } from '../../lib/utils';

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'completed', label: 'Completed' },
] as const;

export default function HomePage() {
  useDocumentTitle('');
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['value']>('all');
  // The dares, stats and featured videos arrive with the dares issue; until then the real layout shows empty.
  const dares: never[] = [];

  return (
    <div className="space-y-8">
      <section className="rounded-xl border bg-gradient-to-br from-primary/20 via-card to-secondary/40 p-6 md:p-10">
        <Badge variant="secondary" className="mb-4">
          <Flame className="mr-1 size-3" aria-hidden /> Live on Solana
        </Badge>
        <h1 className="text-3xl font-extrabold md:text-5xl">Dare. Prove it. Get paid.</h1>
        <p className="mt-3 max-w-2xl text-muted-foreground md:text-lg">
          Stake SOL on a dare, prove it on video, and let the community pool money and vote for the best
          proof.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Button asChild size="lg">
            <Link to="/create-dare">Create Dare</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to="/community-dares">Browse Dares</Link>
          </Button>
        </div>
      </section>

      <section aria-label="Stats" className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <StatTile label="Total Dares" value="0" icon={<Flame className="size-4" aria-hidden />} />
        <StatTile label="Active Dares" value="0" icon={<Trophy className="size-4" aria-hidden />} />
        <StatTile label="Total Rewards" value="0 SOL" icon={<Coins className="size-4" aria-hidden />} />
        <StatTile label="Daredevils" value="0" icon={<Users className="size-4" aria-hidden />} />
      </section>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Crown className="size-5 text-primary" aria-hidden /> Major Dare of the Week
          </CardTitle>
          <CardDescription>
            70% of the prize to the admin's pick, 30% to the community's favourite.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <p className="font-medium">No Major Dare Active</p>
          <p className="text-sm text-muted-foreground">The next major dare will be announced soon!</p>
        </CardContent>
      </Card>

      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <Tabs defaultValue="dares">
          <TabsList>
            <TabsTrigger value="dares">Dares</TabsTrigger>
            <TabsTrigger value="featured">Featured</TabsTrigger>
          </TabsList>
          <TabsContent value="dares" className="space-y-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <fieldset className="flex gap-2">
                <legend className="sr-only">Filter dares</legend>
                {FILTERS.map(({ value, label }) => (
                  <Button
                    key={value}
                    size="sm"
                    variant={filter === value ? 'default' : 'outline'}
                    aria-pressed={filter === value}
                    onClick={() => setFilter(value)}
                  >
                    {label}
                  </Button>
                ))}
              </fieldset>
              <p className="text-sm text-muted-foreground">{dares.length} dares available</p>
            </div>
            <EmptyState
              title="No dares found"
              description="Be the first to create a dare for the community!"
              action={
                <Button asChild>
                  <Link to="/create-dare">Create Dare</Link>
                </Button>
              }
            />
          </TabsContent>
          <TabsContent value="featured">
            <EmptyState
              title="No featured videos yet"
              description="Approved proofs chosen by the admins appear here."
            />
          </TabsContent>
        </Tabs>

        <Card className={cn('h-fit')}>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <MessageSquare className="size-5" aria-hidden /> Live Chat
            </CardTitle>
            <CardDescription>Talk with other daredevils.</CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">Connect your wallet to join the conversation.</p>
          </CardContent>
        </Card>
      </div>

      <section className="rounded-xl border bg-card p-6 text-center">
        <h2 className="text-xl font-semibold">Got a dare in mind?</h2>
        <p className="mt-1 text-muted-foreground">Stake SOL and challenge the community.</p>
        <Button asChild className="mt-4">
          <Link to="/create-dare">Create Dare</Link>
        </Button>
      </section>
    </div>
  );
}
