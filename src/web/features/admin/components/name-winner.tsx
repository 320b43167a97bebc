import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { JUDGING_MESSAGES, type ProposeTransaction } from '#contract/judging';
import type { DareOutcome } from '#contract/submissions';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { formatDayTime } from '#web/lib/dates';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { useJudgingOutcome } from '../api/get-judging-outcome';
import { describeNamed, type NamingStep, readNamingAnswer } from '../lib/name-winners';
import type { ProposeExpectations } from '../lib/verify-propose';
import { ConfirmPayout, type PayoutKind } from './confirm-payout';
import { ProposeDialog } from './propose-dialog';

/** A proposal that still stands (in its window or paid): nobody names another winner. */
export function standingProposal(outcome: DareOutcome | undefined) {
  const proposal = outcome?.proposal;
  return proposal && !proposal.vetoed ? proposal : null;
}

/**
 * Mark Winner / a Major Dare prize, on either program. A v1 vault keeps its old flow (ask, then
 * the server pays by the old rules). On a v2 vault the click asks the server for the propose
 * transaction first, then the dialog says what really happens (who, how much, when, unless the
 * guardian vetoes it) before a judge's wallet signs it; the same call relays it.
 */
export function NameWinnerButton({
  dareId,
  label,
  variant = 'secondary',
  kind,
  username,
  request,
  picked,
  nameOfWallet,
  recordedTitle,
  failureTitle,
}: {
  dareId: number;
  label: string;
  variant?: 'secondary' | 'default' | 'outline';
  /** For the v1 confirmation's amount. */
  kind: PayoutKind;
  username: string;
  /** The call, without and then with the judge's signed transaction. */
  request: (signedTransaction?: string) => Promise<unknown>;
  /** The winners this click picks, in share order, as the page knows them (not the server's answer). */
  picked: ProposeExpectations['picked'];
  /** A winner of the proposal as the dialog names them. */
  nameOfWallet: (wallet: string) => string;
  recordedTitle: string;
  failureTitle: string;
}) {
  const queryClient = useQueryClient();
  const outcome = useJudgingOutcome(dareId);
  const [asking, setAsking] = useState(false);
  const [propose, setPropose] = useState<ProposeTransaction | null>(null);

  const finish = (step: NamingStep) => {
    if (step.kind === 'confirm') {
      setPropose(step.propose);
      return;
    }
    toast(
      describeNamed(step, {
        paysOn: (at) => JUDGING_MESSAGES.winnerNamed(formatDayTime(at)),
        recorded: recordedTitle,
      }),
    );
    void queryClient.invalidateQueries();
  };
  const ask = async () => {
    setAsking(true);
    try {
      finish(readNamingAnswer(await request()));
    } catch (error) {
      // The server's own words ('Only a judge of this dare can name its winner') read as they are.
      toast({ title: failureTitle, description: describePaymentError(error), variant: 'destructive' });
      void queryClient.invalidateQueries();
    } finally {
      setAsking(false);
    }
  };

  if (outcome.isPending)
    return (
      <Button size="sm" variant={variant} disabled>
        {label}
      </Button>
    );
  const judging = outcome.data?.judging ?? null;
  return (
    <>
      {judging === null ? (
        <ConfirmPayout
          trigger={
            <Button size="sm" variant={variant} disabled={asking}>
              {label}
            </Button>
          }
          dareId={dareId}
          kind={kind}
          username={username}
          onConfirm={() => void ask()}
        />
      ) : (
        <Button size="sm" variant={variant} disabled={asking} onClick={() => void ask()}>
          {asking ? 'Preparing…' : label}
        </Button>
      )}
      {propose && (
        <ProposeDialog
          dareId={dareId}
          propose={propose}
          picked={picked}
          signers={judging?.judges ?? []}
          nameOfWallet={nameOfWallet}
          send={request}
          onClose={() => setPropose(null)}
          onDone={(step) => {
            setPropose(null);
            finish(step);
          }}
        />
      )}
    </>
  );
}
