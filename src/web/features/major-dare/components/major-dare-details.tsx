import { CalendarClock, Coins, Users, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import type { MajorDare } from '#contract/major-dare';
import { EmptyState } from '#web/components/common/empty-state';
import { StatTile } from '#web/components/common/stat-tile';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { daysLeft, timeLeftLabel } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';

/**
 * The active Major Dare. The Submit Video dialog and Share plug in through `submitAction` and
 * `actions`; the featured submissions grid through `submissions`.
 */
export function MajorDareDetails({
  majorDare,
  closed,
  submitAction,
  actions,
  submissions,
}: {
  majorDare: Extract<MajorDare, { isActive: true }>;
  /** Completed, cancelled or past its deadline: no more submissions. */
  closed: boolean;
  submitAction?: ReactNode;
  actions?: ReactNode;
  submissions?: ReactNode;
}) {
  const label = timeLeftLabel(majorDare);
  const over = label === 'Ended' || label === 'Cancelled';
  const left = daysLeft(majorDare.deadline);
  return (
    <div className="space-y-6">
      <div className="rounded-xl border border-primary/40 bg-gradient-to-br from-primary/20 via-card to-card p-6">
        <div className="flex flex-wrap gap-2">
          {!closed && <Badge variant="destructive">LIVE</Badge>}
          <Badge>MAJOR DARE</Badge>
          {label !== null && <Badge variant="outline">{label}</Badge>}
        </div>
        <h2 className="mt-4 text-2xl font-bold md:text-3xl">{majorDare.title}</h2>
        <p className="mt-2 whitespace-pre-line text-muted-foreground">{majorDare.description}</p>
        <div className="mt-6 flex flex-wrap gap-2">
          {closed ? <Button disabled>Challenge Closed</Button> : submitAction}
          {actions}
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <StatTile label="Prize Pool" value={formatSol(majorDare.totalPool)} icon={Coins} />
        <StatTile label="Participants" value={majorDare.participantCount} icon={Users} />
        <StatTile label="Submissions" value={majorDare.submissionCount} icon={Video} />
        {over ? (
          <StatTile label="Status" value={label} icon={CalendarClock} />
        ) : (
          <StatTile label="Days Left" value={left ?? 'No deadline'} icon={CalendarClock} />
        )}
      </div>
      <section aria-labelledby="featured-submissions" className="space-y-3">
        <h2 id="featured-submissions" className="text-xl font-semibold">
          Featured Submissions
        </h2>
        {submissions ?? <EmptyState title="No approved submissions yet" />}
      </section>
    </div>
  );
}
