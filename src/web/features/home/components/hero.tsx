import { Flame } from 'lucide-react';
import { Link } from 'react-router';
import { networkLabel } from '#contract/network';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { useConfig } from '#web/lib/config';

/** The landing hero: the product's slogan and its two ways in. */
export function Hero() {
  // The same network name as the side menu's card and the money messages ('localnet', 'devnet').
  const { data: config } = useConfig();
  return (
    <section className="rounded-xl border bg-gradient-to-br from-primary/25 via-card to-secondary/50 p-6 md:p-10">
      <Badge variant="secondary" className="mb-4 gap-1">
        <Flame className="size-3" aria-hidden /> Live on Solana
        {config ? ` ${networkLabel(config.cluster)}` : ''}
      </Badge>
      <h1 className="text-3xl font-extrabold tracking-tight md:text-5xl">Dare. Prove it. Get paid.</h1>
      <p className="mt-3 max-w-2xl text-muted-foreground md:text-lg">
        Stake SOL on a dare, prove it on video, and let the community pool money and vote for the best proof.
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
  );
}
