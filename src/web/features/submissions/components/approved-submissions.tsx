import { Clock, Scale, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { JUDGING_MESSAGES } from '#contract/judging';
import { SUBMISSION_LIMITS } from '#contract/limits';
import type { DareOutcome } from '#contract/submissions';
import { EmptyState } from '#web/components/common/empty-state';
import { PayoutWindowNote } from '#web/components/payments/payout-window';
import { Spinner } from '#web/components/ui/spinner';
import { useDareOutcome } from '#web/lib/dare-outcome';
import { useAuth } from '#web/lib/session/auth-provider';
import { formatSol } from '#web/lib/utils';
import { useMyVotes } from '../api/get-my-votes';
import { useVotingRights } from '../api/get-voting-rights';
import { useApprovedSubmissions } from '../api/list-approved-submissions';
import { useDareSubmissions } from '../api/list-dare-submissions';
import { SubmissionCard } from './submission-card';
import { VotesLeft } from './votes-used';

const WON: Record<DareOutcome['winners'][number]['claimType'], string> = {
  dare_winner: 'won this dare',
  major_admin: "won the admin's pick",
  major_community: 'won the community vote',
};

/** Who won, for how much, and the payout transaction once it is paid. */
function WinnerBanner({ winners }: { winners: DareOutcome['winners'] }) {
  return (
    <div
      role="status"
      aria-label="Winner"
      className="space-y-2 rounded-lg border border-primary/50 bg-primary/10 p-4"
    >
      {winners.map((winner) => (
        <p key={winner.claimType} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <Trophy className="size-4 text-primary" aria-hidden />
          <span className="font-semibold break-words">{winner.username}</span>
          <span>
            {WON[winner.claimType]} · {formatSol(winner.amount)}
          </span>
          {winner.transactionSignature ? (
            <Link className="font-medium text-primary underline" to={`/tx/${winner.transactionSignature}`}>
              View payout transaction
            </Link>
          ) : (
            <span className="text-muted-foreground">Prize not claimed yet</span>
          )}
        </p>
      ))}
    </div>
  );
}

/** The proposal's payout went out: the winner banner links it, so the window note has had its day. */
function paidOut(outcome: DareOutcome): boolean {
  return (
    outcome.proposal?.vetoed !== true &&
    outcome.winners.length > 0 &&
    outcome.winners.every((winner) => winner.transactionSignature !== null)
  );
}

/**
 * A dare's approved proofs (polled every 5 s) with the user's votes left, the winner banner
 * once a winner is picked, the author's own proof while it waits for review, and why voting is
 * closed once votes can change nothing.
 */
export function ApprovedSubmissions({ dareId }: { dareId: number }) {
  const { user } = useAuth();
  const { data, isPending, error } = useApprovedSubmissions(dareId);
  const outcome = useDareOutcome(dareId).data;
  const mine = useDareSubmissions(dareId, user?.id ?? null, user !== null).data ?? [];
  // The API already returns the caller's own proofs; only those not yet public are added here.
  const pendingOwn = mine.filter((s) => s.userId === user?.id && s.status === 'pending');
  const myVotes = useMyVotes(user?.id ?? null, dareId).data;
  const voted = myVotes ? new Set(myVotes.submissionIds) : undefined;
  const major = data?.some((s) => s.dares?.is_major === true) ?? false;
  const rights = useVotingRights(user?.id ?? null, major);
  const notBacker = major && rights.data?.majorDare === false;
  const outOfVotes = voted !== undefined && voted.size >= SUBMISSION_LIMITS.votesPerDare;
  if (isPending) return <Spinner label="Loading submissions" />;
  if (error && !data)
    return <EmptyState title="Submissions could not be loaded" description={error.message} />;
  const votingClosed = outcome?.votingClosed ?? null;
  const byId = new Map(data.map((submission) => [submission.id, submission]));
  return (
    <div className="space-y-3">
      {outcome?.judging && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Scale className="size-4" aria-hidden />
          {JUDGING_MESSAGES.judgedBy(outcome.judging.threshold, outcome.judging.judges.length)}
        </p>
      )}
      {outcome?.proposal && !paidOut(outcome) && (
        <PayoutWindowNote
          proposal={outcome.proposal}
          nameOf={(winner) => byId.get(winner.submissionId ?? -1)?.users?.username}
          proofHashOf={(winner) => byId.get(winner.submissionId ?? -1)?.proofHash}
        />
      )}
      {outcome && outcome.winners.length > 0 && <WinnerBanner winners={outcome.winners} />}
      {votingClosed ? (
        <p className="text-sm text-muted-foreground">{votingClosed}</p>
      ) : (
        // No proof, nothing to vote on: no counter either.
        data.length > 0 && <VotesLeft submissions={data} voted={voted} notBacker={notBacker} />
      )}
      {pendingOwn.length > 0 && (
        <div className="space-y-2">
          <p className="flex items-center gap-1 text-sm text-muted-foreground">
            <Clock className="size-4" aria-hidden /> Your proof arrived and waits for an admin's review.
          </p>
          {pendingOwn.map((submission) => (
            <SubmissionCard key={submission.id} submission={submission} />
          ))}
        </div>
      )}
      {data.length === 0 ? (
        <EmptyState title="No approved submissions yet" />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {data.map((submission) => (
            <SubmissionCard
              key={submission.id}
              submission={submission}
              votingClosed={votingClosed}
              voted={voted?.has(submission.id) ?? false}
              outOfVotes={outOfVotes}
            />
          ))}
        </div>
      )}
    </div>
  );
}
