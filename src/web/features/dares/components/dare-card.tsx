import { CalendarClock, Coins, Undo2, Users } from 'lucide-react';
import { Link } from 'react-router';
import { refundsLine } from '#contract/dare-status';
import type { Dare } from '#contract/dares';
import { DareBadges } from '#web/components/common/dare-badges';
import { timeLeftLabel } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';

/** A dare in a list, linking to /dare/{id}. The counter is the dare's real participant count. */
export function DareCard({ dare }: { dare: Dare }) {
  const left = timeLeftLabel(dare);
  return (
    <Link
      to={`/dare/${dare.id}`}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4 transition-colors hover:border-primary/60 focus-visible:outline-2 focus-visible:outline-primary"
    >
      <DareBadges dare={dare} className="flex flex-wrap gap-1.5" />
      <div className="min-w-0">
        <h3 className="font-semibold break-words">{dare.title}</h3>
        <p className="mt-1 line-clamp-2 text-sm break-words text-muted-foreground">{dare.description}</p>
      </div>
      <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        {dare.refundTotal ? (
          <span className="flex items-center gap-1 font-medium" data-testid="dare-refunded">
            <Undo2 className="size-4" aria-hidden />
            {refundsLine(dare.refundTotal)}
          </span>
        ) : (
          <span className="flex items-center gap-1 font-medium text-primary">
            <Coins className="size-4" aria-hidden />
            {formatSol(dare.totalPool || dare.stakeAmount)}
          </span>
        )}
        <span className="flex items-center gap-1 text-muted-foreground" title="Participants">
          <Users className="size-4" aria-hidden />
          <span data-testid="participant-count">{dare.participantCount}</span>
          <span className="sr-only">participants</span>
        </span>
        {left !== null && (
          <span className="flex items-center gap-1 text-muted-foreground">
            <CalendarClock className="size-4" aria-hidden />
            {left}
          </span>
        )}
      </div>
    </Link>
  );
}
