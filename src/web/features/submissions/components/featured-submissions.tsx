import { Link } from 'react-router';
import { EmptyState } from '#web/components/common/empty-state';
import { Spinner } from '#web/components/ui/spinner';
import { useFeaturedSubmissions } from '../api/list-featured-submissions';
import { SubmissionCard } from './submission-card';

/** The Home page's Featured tab: admin-approved videos, each with a vote button and a player. */
export default function FeaturedSubmissions() {
  const { data, isPending, error } = useFeaturedSubmissions();
  if (isPending) return <Spinner label="Loading featured videos" />;
  if (error && !data)
    return <EmptyState title="Featured videos could not be loaded" description={error.message} />;
  if (data.length === 0)
    return (
      <EmptyState
        title="No featured videos yet"
        description="Approved proofs picked by the admins show here, ready for your vote."
      />
    );
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {data.map((submission) => (
        <SubmissionCard
          key={submission.id}
          submission={submission}
          heading={
            <Link
              to={`/dare/${submission.dareId}`}
              className="text-sm font-medium text-primary hover:underline"
            >
              {submission.dares?.title ?? `Dare #${submission.dareId}`}
            </Link>
          }
        />
      ))}
    </div>
  );
}
