import { Link } from 'react-router';
import { ADMIN_LIST_LIMIT, type AdminDare } from '#contract/admin';
import type { Dare } from '#contract/dares';
import { JUDGING_MESSAGES } from '#contract/judging';
import { solToLamports } from '#contract/money';
import { DareStatusBadge } from '#web/components/common/dare-badges';
import { EmptyState } from '#web/components/common/empty-state';
import { SearchInput, useSearch } from '#web/components/common/search-input';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { formatSol } from '#web/lib/utils';
import { useDeleteDare } from '../api/delete-dare';
import { useAdminDares } from '../api/list-admin-dares';
import { useAdminProposals } from '../api/list-proposals';
import { useSetDareStatus } from '../api/set-dare-status';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Dares Management: every dare (major ones too), searched on the server by title and description,
 * with activate/deactivate, view submissions and delete. Deactivating or deleting a dare that
 * holds SOL refunds every contribution, so both ask first. A refunded dare shows 'Refunded' and
 * its refund transfers instead of an Activate the server would refuse.
 */
export function DaresManagement({
  listClassName,
  onViewSubmissions,
}: {
  listClassName: string;
  onViewSubmissions: (dare: Dare) => void;
}) {
  const { text: search, setText: setSearch, query: q } = useSearch();
  const dares = useAdminDares({ q });
  // The program refuses to cancel a vault whose proposal stands: say so before anyone tries.
  const proposed = new Set(
    (useAdminProposals().data ?? []).filter((p) => p.state === 'window').map((p) => p.dareId),
  );

  return (
    <div className="space-y-3">
      <SearchInput
        label="Search dares"
        placeholder="Search dares..."
        value={search}
        onChange={setSearch}
        className="max-w-sm"
      />
      {dares.isPending ? (
        <Spinner label="Loading dares" />
      ) : dares.isError ? (
        <EmptyState title="Failed to load dares" description={dares.error.message} />
      ) : dares.data.length === 0 ? (
        <EmptyState title={q ? 'No dares match your search' : 'No dares yet'} />
      ) : (
        <>
          <ul className={`${listClassName} space-y-2`} aria-label="Dares">
            {dares.data.map((dare) => (
              <DareRow
                key={dare.id}
                dare={dare}
                proposed={proposed.has(dare.id)}
                onViewSubmissions={() => onViewSubmissions(dare)}
              />
            ))}
          </ul>
          {dares.data.length >= ADMIN_LIST_LIMIT && (
            <p className="text-sm text-muted-foreground">
              Showing the newest {ADMIN_LIST_LIMIT} dares; search to find older ones.
            </p>
          )}
        </>
      )}
    </div>
  );
}

function DareRow({
  dare,
  proposed,
  onViewSubmissions,
}: {
  dare: AdminDare;
  /** A payout proposal of this dare is in its window. */
  proposed: boolean;
  onViewSubmissions: () => void;
}) {
  const setStatus = useSetDareStatus();
  const remove = useDeleteDare();
  const busy = setStatus.isPending || remove.isPending;
  const holdsMoney = solToLamports(dare.totalPool) > 0n;
  // A completed dare's pool went to its winner; an open one's goes back to whoever paid in.
  const refundText =
    dare.status === 'completed'
      ? 'Its prize claims must be paid first.'
      : holdsMoney
        ? `Its pool of ${formatSol(dare.totalPool)} goes back to every wallet that paid into it.`
        : 'It holds no SOL.';

  return (
    <li
      aria-label={dare.title}
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link to={`/dare/${dare.id}`} className="font-medium hover:underline">
            {dare.title}
          </Link>
          {dare.isMajor && <Badge>MAJOR</Badge>}
          <DareStatusBadge phase={dare.phase} />
        </div>
        <p className="text-muted-foreground">
          {formatSol(dare.totalPool)} pool · {dare.participantCount} participants · {dare.submissionCount}{' '}
          submissions
          {dare.creator ? ` · by ${dare.creator.username}` : ''}
        </p>
        {dare.refunds.length > 0 && <RefundList refunds={dare.refunds} />}
      </div>
      <div className="flex flex-wrap gap-2">
        {dare.status === 'active' && proposed && (
          <Button size="sm" variant="outline" disabled>
            Deactivate
          </Button>
        )}
        {dare.status === 'active' && !proposed && (
          // Always asked: an active dare holds at least its stake, and cancelling refunds it.
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="outline" disabled={busy}>
                Deactivate
              </Button>
            }
            title={`Deactivate "${dare.title}"?`}
            description={`The dare is cancelled. ${refundText} A refunded dare cannot be activated again.`}
            confirmLabel="Deactivate and refund"
            onConfirm={() => setStatus.mutate({ id: dare.id, status: 'cancelled' })}
          />
        )}
        {dare.status === 'cancelled' && !dare.refunded && (
          <Button
            size="sm"
            variant="outline"
            disabled={busy}
            onClick={() => setStatus.mutate({ id: dare.id, status: 'active' })}
          >
            Activate
          </Button>
        )}
        <Button size="sm" variant="secondary" onClick={onViewSubmissions}>
          View Submissions
        </Button>
        {proposed ? (
          <Button size="sm" variant="destructive" disabled>
            Delete
          </Button>
        ) : (
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="destructive" disabled={busy}>
                Delete
              </Button>
            }
            title={`Delete "${dare.title}"?`}
            description={`The dare, its submissions and votes are removed for good. ${refundText}`}
            confirmLabel="Delete dare"
            onConfirm={() => remove.mutate({ id: dare.id })}
          />
        )}
      </div>
      {proposed && (
        <p className="w-full text-xs text-muted-foreground">{JUDGING_MESSAGES.cannotCancelProposed}</p>
      )}
    </li>
  );
}

/** The refund transfers of a cancelled dare, each linking to its /tx page. */
function RefundList({ refunds }: { refunds: AdminDare['refunds'] }) {
  return (
    <ul aria-label="Refund transactions" className="space-y-0.5 text-xs text-muted-foreground">
      {refunds.map((refund) => (
        <li key={refund.signature}>
          {formatSol(refund.amount)} back to{' '}
          <span className="font-mono">
            {refund.walletAddress.slice(0, 4)}…{refund.walletAddress.slice(-4)}
          </span>{' '}
          <Link
            to={`/tx/${refund.signature}`}
            className="font-mono text-primary underline-offset-2 hover:underline"
            aria-label={`Refund transaction ${refund.signature}`}
          >
            {refund.signature.slice(0, 8)}…
          </Link>
        </li>
      ))}
    </ul>
  );
}
