import { ArrowRight, Crown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isDareClosed } from '#contract/dare-rules';
import { MAJOR_DARE_SPLIT } from '#contract/limits';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { timeLeftLabel } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';
import { useMajorDare } from '../api/get-major-dare';

// The empty texts are the contract's MAJOR_DARE_MESSAGES written out: importing that module
// would pull zod into the landing chunk.

/**
 * Home's card for the current major dare (the router places it on Home). A closed one (a winner
 * picked, cancelled or past its deadline) reads as the Major Dare page does: no LIVE badge and
 * 'Challenge Closed', with a link to see how it went instead of an invitation to take it.
 */
export function MajorDareCard({
  renderAddToPool,
}: {
  /** The dares feature's Add to Pool, placed by routes.tsx (issue 37, item 1). */
  renderAddToPool?: (dare: { id: number; closed: boolean }) => ReactNode;
} = {}) {
  const majorDare = useMajorDare();
  const closed = majorDare.isActive && isDareClosed(majorDare, new Date());
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Crown className="size-5 text-primary" aria-hidden /> Major Dare of the Week
          {majorDare.isActive && !closed && <Badge>LIVE</Badge>}
        </CardTitle>
        <CardDescription>
          {MAJOR_DARE_SPLIT.adminPercent}% of the prize to the admin's pick,{' '}
          {MAJOR_DARE_SPLIT.communityPercent}% to the community's favourite.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {majorDare.isActive ? (
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div className="min-w-0">
              <p className="text-lg font-semibold">{majorDare.title}</p>
              <p className="line-clamp-2 text-sm text-muted-foreground">{majorDare.description}</p>
              <p className="mt-2 font-medium text-primary">
                {formatSol(majorDare.totalPool)} prize pool
                {closed && (
                  <span className="ml-2 text-muted-foreground">· {timeLeftLabel(majorDare) ?? 'Ended'}</span>
                )}
              </p>
            </div>
            {closed ? (
              <div className="flex flex-wrap gap-2">
                <Button disabled>Challenge Closed</Button>
                <Button asChild variant="outline">
                  <Link to="/major-dare">
                    See the submissions <ArrowRight aria-hidden />
                  </Link>
                </Button>
              </div>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                {renderAddToPool?.({ id: majorDare.id, closed })}
                <Button asChild>
                  <Link to="/major-dare">
                    Take the challenge <ArrowRight aria-hidden />
                  </Link>
                </Button>
              </div>
            )}
          </div>
        ) : (
          <>
            <p className="font-medium">No Major Dare Active</p>
            <p className="text-sm text-muted-foreground">The next major dare will be announced soon!</p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
