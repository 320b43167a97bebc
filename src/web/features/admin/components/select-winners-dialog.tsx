import { Trophy } from 'lucide-react';
import { type ReactElement, useState } from 'react';
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
import { useDareOutcome } from '#web/lib/dare-outcome';
import { countOf, formatSol } from '#web/lib/utils';
import { useAdminSubmissions } from '../api/list-admin-submissions';
import { useSelectMajorWinner } from '../api/select-major-winner';
import { rankEligibleSubmissions } from '../lib/rank-submissions';
import { ConfirmPayout } from './confirm-payout';

/**
 * Picks a major dare's winners: any eligible submission as the admin winner (70%), and the most
 * voted one as the community winner (30%), as the server requires. The amounts shown are the
 * server's split of the pool in lamports.
 */
export function SelectWinnersDialog({ dare }: { dare: Dare }) {
  const [open, setOpen] = useState(false);
  const split = splitMajorPrize(solToLamports(dare.totalPool));
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="secondary" disabled={dare.status === 'cancelled'}>
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

/**
 * One prize's button on a candidate: live while the prize is open; once chosen, disabled on every
 * row, the winner's row naming the prize it got and the others saying it is taken (the server
 * would refuse a second pick after the 'cannot be undone' confirmation).
 */
function PrizeButton({
  label,
  chosen,
  isThisOne,
  busy,
  confirm,
  variant,
}: {
  label: string;
  chosen: { amount: string } | undefined;
  isThisOne: boolean;
  busy: boolean;
  confirm: (trigger: ReactElement) => ReactElement;
  variant: 'default' | 'outline';
}) {
  if (!chosen)
    return confirm(
      <Button size="sm" variant={variant} disabled={busy}>
        {label}
      </Button>,
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Button size="sm" variant={variant} disabled>
        {isThisOne ? `${label}: ${formatSol(chosen.amount)}` : label}
      </Button>
      {!isThisOne && <span className="text-xs text-muted-foreground">Already chosen</span>}
    </span>
  );
}

function Candidates({ dareId }: { dareId: number }) {
  const submissions = useAdminSubmissions({ dareId });
  const select = useSelectMajorWinner();
  const winners = useDareOutcome(dareId).data?.winners ?? [];
  const adminWinner = winners.find((winner) => winner.claimType === 'major_admin');
  const communityWinner = winners.find((winner) => winner.claimType === 'major_community');
  if (submissions.isPending) return <Spinner label="Loading submissions" />;
  if (submissions.isError)
    return <EmptyState title="Failed to load submissions" description={submissions.error.message} />;
  const ranked = rankEligibleSubmissions(submissions.data);
  if (ranked.length === 0)
    return (
      <EmptyState title="No approved submissions yet" description="Approve submissions to pick winners." />
    );
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
            <PrizeButton
              label="Admin Winner (70%)"
              variant="default"
              chosen={adminWinner}
              isThisOne={adminWinner?.submissionId === submission.id}
              busy={select.isPending}
              confirm={(trigger) => (
                <ConfirmPayout
                  trigger={trigger}
                  dareId={dareId}
                  kind="admin"
                  username={submission.users.username}
                  onConfirm={() =>
                    select.mutate({ dareId, submissionId: submission.id, winnerType: 'admin' })
                  }
                />
              )}
            />
            {(index === 0 || communityWinner?.submissionId === submission.id) && (
              <PrizeButton
                label="Community Winner (30%)"
                variant="outline"
                chosen={communityWinner}
                isThisOne={communityWinner?.submissionId === submission.id}
                busy={select.isPending}
                confirm={(trigger) => (
                  <ConfirmPayout
                    trigger={trigger}
                    dareId={dareId}
                    kind="community"
                    username={submission.users.username}
                    onConfirm={() =>
                      select.mutate({ dareId, submissionId: submission.id, winnerType: 'community' })
                    }
                  />
                )}
              />
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
