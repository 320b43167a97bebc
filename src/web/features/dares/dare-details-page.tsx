import { Link, useParams } from 'react-router';
import { EmptyState, useDocumentTitle } from '../../components/common/page';
import { Button } from '../../components/ui/button';

export default function DareDetailsPage() {
  const { id } = useParams();
  useDocumentTitle(`Dare ${id ?? ''}`);
  // The dare read arrives with the dares issue; until then every id is unknown.
  return (
    <EmptyState
      title="Dare not found"
      description={`There is no dare with id ${id}.`}
      action={
        <Button asChild variant="outline">
          <Link to="/community-dares">Back to Community Dares</Link>
        </Button>
      }
    />
  );
}
