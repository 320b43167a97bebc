import { SUBMISSION_LIMITS } from '#contract/limits';
import { useAuth } from '#web/lib/session/auth-provider';
import { useVoteCount } from '../api/get-vote-count';

/** 'n/3 votes used' on a dare, for the logged-in user (a visitor has used none). */
export function VotesUsed({ dareId }: { dareId: number }) {
  const { user } = useAuth();
  const { data } = useVoteCount(user?.id ?? null, dareId);
  const used = user ? (data?.voteCount ?? 0) : 0;
  return (
    <p className="text-sm text-muted-foreground" data-testid="votes-used" aria-live="polite">
      {used}/{SUBMISSION_LIMITS.votesPerDare} votes used
    </p>
  );
}
