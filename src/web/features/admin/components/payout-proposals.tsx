import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type AdminProposal, JUDGING_MESSAGES, type ProposalWinner } from '#contract/judging';
import { solToLamports } from '#contract/money';
import { EmptyState } from '#web/components/common/empty-state';
import { PayoutCountdown } from '#web/components/payments/payout-window';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { formatDayTime } from '#web/lib/dates';
import { formatSol } from '#web/lib/utils';
import { useJudgingOutcome } from '../api/get-judging-outcome';
import { useAdminSubmissions } from '../api/list-admin-submissions';
import { useAdminProposals } from '../api/list-proposals';
import { markWinner } from '../api/mark-winner';
import { selectMajorWinners } from '../api/select-major-winners';
import { describeNamed, type NamingStep } from '../lib/name-winners';
import { nameOfWallet, type ProofAuthors, proofAuthors } from '../lib/proof-authors';
import { ProposeDialog } from './propose-dialog';
import { winnerNamer } from './winner-actions';

/**
 * The call that relays a stored, partly signed propose: mark-winner for a community dare (one
 * winner), the Major Dare's both-winners route for a pair, the larger (70%) share as the admin's
 * pick. The contract has no call of its own for it (docs/decisions/040).
 */
export function relayCall(proposal: Pick<AdminProposal, 'dareId' | 'winners'>) {
  const [first] = proposal.winners;
  if (proposal.winners.length === 1 && first?.submissionId != null) {
    const id = first.submissionId;
    return (signedTransaction: string) => markWinner({ id, dareId: proposal.dareId, signedTransaction });
  }
  const [admin, community] = [...proposal.winners].sort((a, b) =>
    solToLamports(b.amount) > solToLamports(a.amount) ? 1 : -1,
  );
  if (admin?.submissionId == null || community?.submissionId == null) return null;
  const picks = { adminSubmissionId: admin.submissionId, communitySubmissionId: community.submissionId };
  return (signedTransaction: string) =>
    selectMajorWinners({ dareId: proposal.dareId, ...picks, signedTransaction });
}

/**
 * The admin panel's payout proposals (issue 24): those judges are still signing, with Sign for a
 * judge who has not, and those in their window: who gets what, when it pays, its transaction.
 */
export function PayoutProposals() {
  const proposals = useAdminProposals();
  const submissions = useAdminSubmissions();
  const authors = proofAuthors(submissions.data ?? []);
  const nameOf = winnerNamer(authors);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payout proposals</CardTitle>
      </CardHeader>
      <CardContent>
        {proposals.isPending ? (
          <Spinner label="Loading proposals" />
        ) : proposals.isError ? (
          <EmptyState title="Failed to load proposals" description={proposals.error.message} />
        ) : proposals.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No payout is being signed or waiting for its window.
          </p>
        ) : (
          <ul className="space-y-2" aria-label="Payout proposals">
            {proposals.data.map((proposal) => (
              <ProposalRow
                key={`${proposal.vault}:${proposal.state}`}
                proposal={proposal}
                nameOf={nameOf}
                authors={authors}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function WinnerAmounts({
  winners,
  nameOf,
}: {
  winners: ProposalWinner[];
  nameOf: (winner: ProposalWinner) => string;
}) {
  return (
    <p className="break-words">
      {winners.map((winner, index) => (
        <span key={`${winner.walletAddress}:${winner.submissionId}`}>
          {index > 0 && ', '}
          <span className="font-medium">{nameOf(winner)}</span> {formatSol(winner.amount)}
        </span>
      ))}
    </p>
  );
}

function ProposalRow({
  proposal,
  nameOf,
  authors,
}: {
  proposal: AdminProposal;
  nameOf: (winner: ProposalWinner) => string;
  authors: ProofAuthors;
}) {
  return (
    <li
      aria-label={proposal.dareTitle}
      className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-3 text-sm"
    >
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <Link to={`/dare/${proposal.dareId}`} className="font-medium hover:underline">
            {proposal.dareTitle}
          </Link>
          <Badge variant={proposal.state === 'window' ? 'secondary' : 'outline'}>
            {proposal.state === 'window' ? 'In its window' : 'Being signed'}
          </Badge>
        </p>
        <WinnerAmounts winners={proposal.winners} nameOf={nameOf} />
        {proposal.state === 'window' && proposal.executesAt ? (
          <p className="text-muted-foreground">
            {JUDGING_MESSAGES.winnerNamed(formatDayTime(proposal.executesAt))} ·{' '}
            <PayoutCountdown executesAt={proposal.executesAt} />
          </p>
        ) : (
          <p className="text-muted-foreground">
            Signed by {proposal.signedBy.length}; {proposal.signaturesNeeded} more{' '}
            {proposal.signaturesNeeded === 1 ? 'signature' : 'signatures'} needed
          </p>
        )}
        {proposal.signature && (
          <Link className="text-primary underline" to={`/tx/${proposal.signature}`}>
            View proposal transaction
          </Link>
        )}
      </div>
      {proposal.state === 'collecting' && proposal.transaction && (
        <SignProposal proposal={proposal} transaction={proposal.transaction} authors={authors} />
      )}
    </li>
  );
}

/**
 * Sign, for a judge who has not: the stored transaction, signed and relayed by the same call.
 * Another judge picked its winners, so the dialog names them from the transaction itself.
 */
function SignProposal({
  proposal,
  transaction,
  authors,
}: {
  proposal: AdminProposal;
  transaction: string;
  authors: ProofAuthors;
}) {
  const queryClient = useQueryClient();
  const judging = useJudgingOutcome(proposal.dareId).data?.judging ?? null;
  const [open, setOpen] = useState(false);
  const send = relayCall(proposal);
  // Only judges who have not signed can add a signature that counts.
  const unsigned = (judging?.judges ?? []).filter((judge) => !proposal.signedBy.includes(judge));
  if (!send) return null;
  // While collecting the window has not started: it starts when the last signature lands.
  const executesAt =
    proposal.executesAt ?? new Date(Date.now() + (judging?.payoutWindowSeconds ?? 0) * 1000).toISOString();
  return (
    <>
      <Button size="sm" disabled={judging === null} onClick={() => setOpen(true)}>
        Sign
      </Button>
      {open && (
        <ProposeDialog
          dareId={proposal.dareId}
          propose={{ transaction, winners: proposal.winners, executesAt }}
          picked={null}
          signers={unsigned}
          nameOfWallet={(wallet) => nameOfWallet(authors, wallet)}
          send={send}
          onClose={() => setOpen(false)}
          onDone={(step: NamingStep) => {
            setOpen(false);
            if (step.kind !== 'confirm')
              toast(
                describeNamed(step, {
                  paysOn: (at) => JUDGING_MESSAGES.winnerNamed(formatDayTime(at)),
                  recorded: 'Signature recorded',
                }),
              );
            void queryClient.invalidateQueries();
          }}
        />
      )}
    </>
  );
}
