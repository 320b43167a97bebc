import { Trophy } from 'lucide-react';
import { useState } from 'react';
import type { Dare } from '#contract/dares';
import { splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, solToLamports } from '#contract/money';
import { EmptyState } from '#web/components/common/empty-state';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { countOf, formatSol } from '#web/lib/utils';
import { useJudgingOutcome } from '../api/get-judging-outcome';
import { useAdminSubmissions } from '../api/list-admin-submissions';
import { proofAuthors } from '../lib/proof-authors';
import { rankEligibleSubmissions } from '../lib/rank-submissions';
import { NameMajorWinners } from './name-major-winners';
import { standingProposal } from './name-winner';
import { chosenPrizes, MajorPrizeButton } from './winner-actions';

/**
 * Picks a major dare's winners: any eligible submission as the admin winner (70%), and the most
 * voted one as the community winner (30%), as the server requires. The amounts shown are the
 * server's split of the pool in lamports. On a judged (v2) vault both are named in one
 * confirmation and one signature (NameMajorWinners); a v1 vault keeps its one pick at a time.
 */
export function SelectWinnersDialog({ dare }: { dare: Dare }) {
  const [open, setOpen] = useState(false);
  const split = splitMajorPrize(solToLamports(dare.totalPool));
  if (dare.status === 'cancelled')
    return (
      <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
        <Button size="sm" variant="secondary" disabled>
          <Trophy aria-hidden /> Select Winners
        </Button>
        <span className="text-xs text-muted-foreground">Cancelled: nobody wins it</span>
      </span>
    );
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary">
          <Trophy aria-hidden /> Select Winners
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Select Winners</DialogTitle>
          <DialogDescription>
            {dare.title}: the admin winner gets {formatSol(lamportsToSol(split.admin))} (70%), the community
            winner {formatSol(lamportsToSol(split.community))} (30%, the most voted submission).
          </DialogDescription>
        </DialogHeader>
        {open && <Candidates dareId={dare.id} />}
      </DialogContent>
    </Dialog>
  );
}

function Candidates({ dareId }: { dareId: number }) {
  const submissions = useAdminSubmissions({ dareId });
  const outcome = useJudgingOutcome(dareId);
  const chosen = chosenPrizes(outcome.data);
  const communityPick = chosen.community;
  if (submissions.isPending || outcome.isPending) return <Spinner label="Loading submissions" />;
  if (submissions.isError)
    return <EmptyState title="Failed to load submissions" description={submissions.error.message} />;
  const ranked = rankEligibleSubmissions(submissions.data);
  if (ranked.length === 0)
    return (
      <EmptyState title="No approved submissions yet" description="Approve submissions to pick winners." />
    );
  const authors = proofAuthors(submissions.data);
  // A judged vault names both winners in one propose, one signature; until a proposal stands.
  if (outcome.data?.judging && !standingProposal(outcome.data))
    return <NameMajorWinners dareId={dareId} ranked={ranked} authors={authors} chosen={chosen} />;
  return (
    <ul className="max-h-96 space-y-2 overflow-y-auto" aria-label="Eligible submissions">
      {ranked.map((submission, index) => (
        <li
          key={submission.id}
          aria-label={submission.users.username}
          className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm"
        >
          <div className="min-w-0">
            <p className="font-medium">
              {submission.users.username}{' '}
              {submission.status === 'winner' && <Badge variant="success">winner</Badge>}
            </p>
            <p className="text-muted-foreground">
              {countOf(submission.votes, 'vote')}
              {submission.description ? ` · ${submission.description}` : ''}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <MajorPrizeButton
              dareId={dareId}
              submissionId={submission.id}
              username={submission.users.username}
              type="admin"
              variant="default"
              authors={authors}
            />
            {/* The server takes only the most voted proof as the community's winner. */}
            {index === 0 || communityPick?.submissionId === submission.id ? (
              <MajorPrizeButton
                dareId={dareId}
                submissionId={submission.id}
                username={submission.users.username}
                type="community"
                variant="outline"
                authors={authors}
              />
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
