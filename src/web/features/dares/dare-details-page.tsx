import { AlertTriangle, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { closedReason, type DarePhase } from '#contract/dare-status';
import { EmptyState } from '#web/components/common/empty-state';
import { ShareButton } from '#web/components/common/share-button';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { ApiError } from '#web/lib/api-client';
import { useDare } from '#web/lib/dare';
import { useDocumentTitle } from '#web/lib/use-document-title';
import { useNow } from '#web/lib/use-now';
import { AddToPoolDialog } from './components/add-to-pool-dialog';
import { BlinkShareDialog } from './components/blink-share-dialog';
import { DareDetails } from './components/dare-details';

/** A route id that can name a dare: a positive integer, else null (no request is made). */
function parseDareId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** What the submissions feature adds to a dare's page, composed in by the router. */
export interface DareSubmissionSlots {
  /** The Submit Video action; `closed` when the dare no longer takes proofs. */
  renderSubmit?: (dare: { id: number; title: string; closed: boolean }) => ReactNode;
  /** The approved submissions with votes and the player. */
  renderSubmissions?: (dareId: number) => ReactNode;
}

/** What the refund-me feature adds: 'Refund me' for a payer of a refunding or overdue dare. */
export interface DareRefundSlot {
  renderRefund?: (dare: { id: number; phase: DarePhase }) => ReactNode;
}

/**
 * /dare/:id. The chat and the submissions come from the route (`renderChat`, `renderSubmit`,
 * `renderSubmissions`), so this feature imports neither.
 */
export default function DareDetailsPage({
  renderChat,
  renderSubmit,
  renderSubmissions,
  renderRefund,
}: { renderChat?: (dareId: number) => ReactNode } & DareSubmissionSlots & DareRefundSlot) {
  const { id: rawId } = useParams();
  const id = parseDareId(rawId);
  const { data: dare, isPending, error } = useDare(id);
  const now = useNow(30_000);
  const isLoading = id !== null && isPending;
  const isMissing = id === null || (error instanceof ApiError && error.status === 404);
  useDocumentTitle(isLoading ? 'Dare' : (dare?.title ?? (isMissing ? 'Dare not found' : 'Dare')));

  if (isLoading) return <Spinner label="Loading dare" />;
  if (!dare) {
    if (!isMissing) {
      return (
        <EmptyState
          icon={AlertTriangle}
          title="The dare could not be loaded"
          description={error instanceof Error ? error.message : undefined}
        />
      );
    }
    return (
      <EmptyState
        icon={SearchX}
        title="Dare not found"
        description={rawId ? `There is no dare with id ${rawId}.` : undefined}
        action={
          <Button asChild variant="outline">
            <Link to="/community-dares">Browse Community Dares</Link>
          </Button>
        }
      />
    );
  }

  // One rule (the server's phase), with the deadline passing while the page is open.
  const closed = closedReason(dare, now);
  return (
    <DareDetails
      dare={dare}
      actions={
        <>
          {renderSubmit?.({ id: dare.id, title: dare.title, closed: closed !== null })}
          <AddToPoolDialog dare={dare} disabled={closed !== null} disabledReason={closed ?? undefined} />
          <ShareButton title={dare.title} description={dare.description} path={`/dare/${dare.id}`} />
          <BlinkShareDialog dareId={dare.id} title={dare.title} />
          {renderRefund?.({ id: dare.id, phase: dare.phase })}
        </>
      }
      submissions={renderSubmissions?.(dare.id)}
      chat={renderChat?.(dare.id)}
    />
  );
}
