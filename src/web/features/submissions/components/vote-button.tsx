import { Check, ThumbsUp } from 'lucide-react';
import type { Submission } from '#contract/submissions';
import { VOTE_REASONS } from '#contract/voting';
import { Button } from '#web/components/ui/button';
import { useAuth } from '#web/lib/session/auth-provider';
import { useVotingRights } from '../api/get-voting-rights';
import { useVote } from '../api/vote';

/**
 * Vote with the current count (docs/product.md#voting-rules). A vote that cannot be cast is never
 * a live button: a visitor, one's own proof, a winner, a Major Dare proof for a user who never
 * paid in, a proof already voted for ('Voted', filled), votes used up (`outOfVotes`), or a dare
 * whose votes no longer count (`closedReason`, the server's own 409 message). The reason is text
 * beside the button, since a phone shows no tooltip; the dare's list says the longer version once.
 */
export function VoteButton({
  submission,
  closedReason = null,
  voted = false,
  outOfVotes = false,
}: {
  submission: Submission;
  closedReason?: string | null;
  /** The signed-in user already voted for this proof. */
  voted?: boolean;
  /** The signed-in user has no vote left on this dare. */
  outOfVotes?: boolean;
}) {
  const { user } = useAuth();
  const vote = useVote(user?.id ?? null);
  const own = user !== null && user.id === submission.userId;
  const won = submission.status === 'winner';
  const major = submission.dares?.is_major === true;
  const rights = useVotingRights(user?.id ?? null, major && !own && !won);
  const notBacker = major && rights.data?.majorDare === false;
  const reason =
    closedReason !== null
      ? closedReason
      : won
        ? VOTE_REASONS.won
        : !user
          ? VOTE_REASONS.visitor
          : own
            ? VOTE_REASONS.own
            : voted
              ? null
              : notBacker
                ? VOTE_REASONS.notBacker
                : outOfVotes
                  ? VOTE_REASONS.outOfVotes
                  : null;
  const count = `${submission.votes} ${submission.votes === 1 ? 'vote' : 'votes'}`;
  // The dare's own closed notice already heads the list; a winner wears its badge.
  const showReason = reason !== null && closedReason === null && !won;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Button
        size="sm"
        variant={voted ? 'default' : 'secondary'}
        disabled={reason !== null || voted || vote.isPending}
        title={reason ?? undefined}
        aria-label={voted ? `Voted (${count})` : `Vote (${count})`}
        aria-pressed={voted || undefined}
        onClick={() => vote.mutate(submission)}
      >
        {voted ? <Check aria-hidden /> : <ThumbsUp aria-hidden />}
        {voted && <span>{VOTE_REASONS.voted}</span>}
        <span className="tabular-nums">{submission.votes}</span>
      </Button>
      {showReason && (
        <span className="text-xs text-muted-foreground" data-testid="vote-reason">
          {reason}
        </span>
      )}
    </span>
  );
}
