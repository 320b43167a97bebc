import { CalendarClock, Coins, Undo2, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Dare } from '#contract/dares';
import { DareBadges } from '#web/components/common/dare-badges';
import { EmptyState } from '#web/components/common/empty-state';
import { StatTile } from '#web/components/common/stat-tile';
import { daysLeft, timeLeftLabel } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';
import { DareBackers } from './dare-backers';
import { DareMoneyNote } from './dare-money-note';
import { VaultLink } from './vault-link';

/**
 * A dare's page body (docs/product.md#dare-details). The action dialogs, the approved
 * submissions and the chat come in as slots from their own features.
 */
export function DareDetails({
  dare,
  actions,
  submissions,
  chat,
}: {
  dare: Dare;
  actions?: ReactNode;
  submissions?: ReactNode;
  chat?: ReactNode;
}) {
  const label = timeLeftLabel(dare);
  // A finished dare says so instead of counting days.
  const over = dare.phase !== 'active';
  const left = daysLeft(dare.deadline);
  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-6">
        <DareBadges dare={dare} className="flex flex-wrap gap-2" />
        <div>
          <h1 className="text-2xl font-bold tracking-tight break-words md:text-3xl">{dare.title}</h1>
          <p className="mt-2 whitespace-pre-line break-words text-muted-foreground">{dare.description}</p>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          {/* docs/product.md#dare-details: the total pool falls back to the stake amount; a refunded pool says where it went. */}
          {dare.refundTotal ? (
            <StatTile
              label={dare.refundTotal.backers < dare.refundTotal.paidBackers ? 'Refunded so far' : 'Refunded'}
              value={formatSol(dare.refundTotal.amount)}
              hint={
                dare.refundTotal.backers < dare.refundTotal.paidBackers
                  ? `to ${dare.refundTotal.backers} of ${dare.refundTotal.paidBackers} backers, of ${formatSol(dare.refundTotal.paidAmount)}`
                  : `to ${dare.refundTotal.backers} ${dare.refundTotal.backers === 1 ? 'backer' : 'backers'}`
              }
              icon={Undo2}
            />
          ) : (
            <StatTile label="Total Pool" value={formatSol(dare.totalPool || dare.stakeAmount)} icon={Coins} />
          )}
          <StatTile label="Submissions" value={dare.submissionCount} icon={Video} />
          {over ? (
            <StatTile label="Status" value={label} icon={CalendarClock} />
          ) : (
            <StatTile label="Days Left" value={left ?? 'No deadline'} icon={CalendarClock} />
          )}
        </div>
        <DareMoneyNote dare={dare} />
        <VaultLink vault={dare.escrowWallet} />
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        <DareBackers dareId={dare.id} />
        <section aria-labelledby="approved-submissions" className="space-y-3">
          <h2 id="approved-submissions" className="text-xl font-semibold">
            Approved Submissions
          </h2>
          {submissions ?? <EmptyState title="No approved submissions yet" />}
        </section>
      </div>
      {chat}
    </div>
  );
}
