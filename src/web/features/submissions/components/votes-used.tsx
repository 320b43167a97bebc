import { SUBMISSION_LIMITS } from '#contract/limits';
import type { Submission } from '#contract/submissions';
import { MAJOR_VOTE_NEEDS_PAYMENT, VOTE_REASONS } from '#contract/voting';
import { useAuth } from '#web/lib/session/auth-provider';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * How many of the user's votes on a dare are left and where they can still go: '2 of 3 votes
 * left · 1 proof you can still vote for'. Proofs the user cannot vote for (their own, a winner,
 * one already voted for) are not counted; a user with no vote to cast reads why instead.
 */
export function VotesLeft({
  submissions,
  voted,
  notBacker,
}: {
  submissions: Submission[];
  /** The proofs of this dare the user voted for; undefined while loading. */
  voted: ReadonlySet<number> | undefined;
  notBacker: boolean;
}) {
  const { user } = useAuth();
  const total = SUBMISSION_LIMITS.votesPerDare;
  let text: string;
  if (!user) text = VOTE_REASONS.visitorLine;
  else if (notBacker) text = MAJOR_VOTE_NEEDS_PAYMENT;
  else if (voted === undefined) text = `${total} votes per dare`;
  else {
    const left = Math.max(0, total - voted.size);
    const open = submissions.filter(
      (s) => s.status === 'approved' && s.userId !== user.id && !voted.has(s.id),
    ).length;
    if (left === 0) text = `All ${total} votes used on this dare`;
    else if (open === 0) text = `${left} of ${total} votes left · no other proof to vote for yet`;
    else text = `${left} of ${total} votes left · ${plural(open, 'proof')} you can still vote for`;
  }
  return (
    <p className="text-sm text-muted-foreground" data-testid="votes-used" aria-live="polite">
      {text}
    </p>
  );
}
