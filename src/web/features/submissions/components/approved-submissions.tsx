import { EmptyState } from '../../../components/common/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { useApprovedSubmissions } from '../api/submissions';
import { SubmissionCard } from './submission-card';
import { VotesUsed } from './votes-used';

/** A dare's approved proofs (polled every 5 s) with the user's 'n/3 votes used'. */
export function ApprovedSubmissions({ dareId }: { dareId: number }) {
  const { data, isPending, error } = useApprovedSubmissions(dareId);
  if (isPending) return <Spinner label="Loading submissions" />;
  if (error && !data)
    return <EmptyState title="Submissions could not be loaded" description={error.message} />;
  return (
    <div className="space-y-3">
      <VotesUsed dareId={dareId} />
      {data.length === 0 ? (
        <EmptyState title="No approved submissions yet" />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {data.map((submission) => (
            <SubmissionCard key={submission.id} submission={submission} />
          ))}
        </div>
      )}
    </div>
  );
}
