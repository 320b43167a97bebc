import { AlertTriangle, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useDare } from './api/get-dare';
import { AddToPoolDialog } from './components/add-to-pool-dialog';
import { DareDetails } from './components/dare-details';

/** A route id that can name a dare: a positive integer, else null (no request is made). */
function parseDareId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/**
 * /dare/:id. The chat comes from the route (`renderChat`), so this feature does not import chat.
 * The submissions feature fills the marked slots: its Submit Video and Share actions beside Add
 * to Pool, and its approved submissions list (the empty state shows until then).
 */
export default function DareDetailsPage({ renderChat }: { renderChat?: (dareId: number) => ReactNode }) {
  const { id: rawId } = useParams();
  const id = parseDareId(rawId);
  const { data: dare, isPending, error } = useDare(id);
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

  // The server takes contributions only while the dare is active and its deadline is ahead.
  const isOpen =
    dare.status === 'active' && (dare.deadline === null || new Date(dare.deadline).getTime() > Date.now());
  return (
    <DareDetails
      dare={dare}
      actions={
        <>
          {/* Slot: Submit Video dialog (submissions issue). */}
          <AddToPoolDialog dare={dare} disabled={!isOpen} />
          {/* Slot: Share (submissions issue). */}
        </>
      }
      // Slot: approved submissions with votes (submissions issue); until then the empty state.
      submissions={undefined}
      chat={renderChat?.(dare.id)}
    />
  );
}
