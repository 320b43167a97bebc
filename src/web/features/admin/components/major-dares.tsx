import type { Dare } from '#contract/dares';
import { DareStatusBadge } from '#web/components/common/dare-badges';
import { EmptyState } from '#web/components/common/empty-state';
import { Spinner } from '#web/components/ui/spinner';
import { daysLeft } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';
import { useAdminDares } from '../api/list-admin-dares';
import { CreateMajorDareDialog } from './create-major-dare-dialog';
import { SelectWinnersDialog } from './select-winners-dialog';

/** Major Dares: the create dialog, every major dare (newest first) and its select-winners dialog. */
export function MajorDares({
  listClassName,
  walletAddress,
}: {
  listClassName: string;
  walletAddress: string | null;
}) {
  const dares = useAdminDares({ major: true });
  return (
    <div className="space-y-3">
      <CreateMajorDareDialog walletAddress={walletAddress} />
      {dares.isPending ? (
        <Spinner label="Loading major dares" />
      ) : dares.isError ? (
        <EmptyState title="Failed to load major dares" description={dares.error.message} />
      ) : dares.data.length === 0 ? (
        <EmptyState title="No major dares yet" />
      ) : (
        <ul className={`${listClassName} space-y-2`} aria-label="Major dares">
          {dares.data.map((dare) => (
            <MajorDareRow key={dare.id} dare={dare} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MajorDareRow({ dare }: { dare: Dare }) {
  const left = daysLeft(dare.deadline);
  return (
    <li
      aria-label={dare.title}
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{dare.title}</span>
          <DareStatusBadge phase={dare.phase} />
        </div>
        <p className="text-muted-foreground">
          {formatSol(dare.totalPool)} prize pool · {dare.participantCount}/{dare.maxParticipants} participants
          · {dare.submissionCount} submissions{left !== null ? ` · ${left} days left` : ''}
        </p>
      </div>
      <SelectWinnersDialog dare={dare} />
    </li>
  );
}
