import { ThumbsUp } from 'lucide-react';
import type { Submission } from '#contract/submissions';
import { MAJOR_VOTE_NEEDS_PAYMENT } from '#contract/voting';
import { Button } from '#web/components/ui/button';
import { useAuth } from '#web/lib/session/auth-provider';
import { useVotingRights } from '../api/get-voting-rights';
import { useVote } from '../api/vote';

/**
 * Vote with the current count. Disabled without a logged-in user (docs/product.md#voting-rules), on one's own
 * proof, on a winner (its prize is decided), and on a Major Dare's proof for a user who never paid
 * into DarePool (the title says how to qualify), and once votes can change nothing (`closedReason`,
 * the server's own 409 message: a cancelled dare, a winner picked); the server decides the rest
 * (3 per dare, one per submission) and its message is toasted.
 */
export function VoteButton({
  submission,
  closedReason = null,
}: {
  submission: Submission;
  closedReason?: string | null;
}) {
  const { user } = useAuth();
  const vote = useVote(user?.id ?? null);
  const own = user !== null && user.id === submission.userId;
  const won = submission.status === 'winner';
  const major = submission.dares?.is_major === true;
  const rights = useVotingRights(user?.id ?? null, major && !own && !won);
  const notBacker = major && rights.data?.majorDare === false;
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={!user || own || won || notBacker || closedReason !== null || vote.isPending}
      title={
        closedReason !== null
          ? closedReason
          : won
            ? 'This submission won: voting on it is closed'
            : !user
              ? 'Connect your wallet to vote'
              : own
                ? 'You cannot vote for your own submission'
                : notBacker
                  ? MAJOR_VOTE_NEEDS_PAYMENT
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
