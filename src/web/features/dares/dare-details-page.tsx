import { SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../components/common/empty-state';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useDocumentTitle } from '../../lib/use-document-title';
import { DareDetails } from './components/dare-details';
import type { DareView } from './types';

/**
 * /dare/:id. GET /api/dares/{id} arrives with the dares issue: its hook replaces the two
 * placeholders below (`const { data: dare, isPending } = useDare(id)`); the states are final.
 */
export default function DareDetailsPage() {
  const { id } = useParams();
  const dare = undefined as DareView | undefined;
  const isPending = false;
  useDocumentTitle(isPending ? 'Dare' : (dare?.title ?? 'Dare not found'));

  if (isPending) return <Spinner label="Loading dare" />;
  if (!dare) {
    return (
      <EmptyState
        icon={SearchX}
        title="Dare not found"
        description={id ? `There is no dare with id ${id}.` : undefined}
        action={
          <Button asChild variant="outline">
            <Link to="/community-dares">Browse Community Dares</Link>
          </Button>
        }
      />
    );
  }
  return <DareDetails dare={dare} />;
}
