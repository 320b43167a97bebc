import { ThumbsUp } from 'lucide-react';
import type { Submission } from '../../../../contract/submissions';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../auth/auth-provider';
import { useVote } from '../api/vote';

/**
 * Vote with the current count. Disabled without a logged-in user (spec section 2), on one's own
 * proof and on a winner (the server takes votes only on approved proofs, and a winner's prize is
 * decided); the server decides the rest (3 per dare, one per submission) and its message is toasted.
 */
export function VoteButton({ submission }: { submission: Submission }) {
  const { user } = useAuth();
  const vote = useVote(user?.id ?? null);
  const own = user !== null && user.id === submission.userId;
  const won = submission.status === 'winner';
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={!user || own || won || vote.isPending}
      title={
        won
          ? 'This submission won: voting on it is closed'
          : !user
            ? 'Connect your wallet to vote'
            : own
              ? 'You cannot vote for your own submission'
              : undefined
      }
      aria-label={`Vote (${submission.votes} ${submission.votes === 1 ? 'vote' : 'votes'})`}
      onClick={() => vote.mutate(submission)}
    >
      <ThumbsUp aria-hidden />
      <span className="tabular-nums">{submission.votes}</span>
    </Button>
  );
}
