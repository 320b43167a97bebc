import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { JUDGING_MESSAGES, type ProposalWinner, type ProposeTransaction } from '#contract/judging';
import type { DareOutcome } from '#contract/submissions';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { toast } from '#web/components/ui/use-toast';
import { useConfig } from '#web/lib/config';
import { dareOutcomeKey } from '#web/lib/dare-outcome';
import { formatDayTime } from '#web/lib/dates';
import { lazyConnectJudgeWallet } from '#web/lib/payments/lazy-payment-wallet';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { proposalSentence } from '#web/lib/payout-window';
import { describeNamed, type NamingStep, readNamingAnswer, signAndRelay } from '../lib/name-winners';
import { ConfirmPayout, type PayoutKind } from './confirm-payout';

/**
 * The dare's outcome as the admin panel reads it: who judges its vault (null: program v1) and the
 * standing proposal. Not polled: rows of many dares share it, and every action refetches it.
 */
export function useJudgingOutcome(dareId: number) {
  return useQuery<DareOutcome>({ queryKey: dareOutcomeKey(dareId), staleTime: 15_000 });
}

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
  nameOf,
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
  /** A winner of the proposal as the dialog names them. */
  nameOf: (winner: ProposalWinner) => string;
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
          propose={propose}
          judges={judging?.judges ?? []}
          nameOf={nameOf}
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

/**
 * The confirmation of issue 24: "Name walker1 the winner?" and what happens, then the judge's
 * wallet signs. A failure (no judge's wallet here, a rejected signature, the server's refusal)
 * stays in the dialog as text, so it can be read at any width and tried again.
 */
export function ProposeDialog({
  propose,
  judges,
  nameOf,
  send,
  onClose,
  onDone,
}: {
  propose: Pick<ProposeTransaction, 'transaction' | 'winners' | 'executesAt'>;
  judges: readonly string[];
  nameOf: (winner: ProposalWinner) => string;
  send: (signedTransaction: string) => Promise<unknown>;
  onClose: () => void;
  onDone: (step: NamingStep) => void;
}) {
  const { data: config } = useConfig();
  const [signing, setSigning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { question, detail } = proposalSentence(
    propose.winners.map((winner) => ({ name: nameOf(winner), amount: winner.amount })),
    propose.executesAt,
  );
  const sign = async () => {
    setSigning(true);
    setFailure(null);
    try {
      onDone(
        await signAndRelay(
          { transaction: propose.transaction, judges },
          {
            connectJudge: lazyConnectJudgeWallet({ embeddedChain: config?.embeddedChain ?? false }),
            send,
          },
        ),
      );
    } catch (error) {
      setFailure(describePaymentError(error));
    } finally {
      setSigning(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && !signing && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{question}</DialogTitle>
          <DialogDescription>{detail}</DialogDescription>
        </DialogHeader>
        <p className="text-xs text-muted-foreground">
          Your wallet signs the proposal; it is public on chain from now until it pays.
        </p>
        {failure && (
          <p role="alert" className="text-sm break-words text-destructive">
            {failure}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" disabled={signing} onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={signing} onClick={() => void sign()}>
            {signing
              ? 'Signing…'
              : propose.winners.length > 1
                ? 'Sign and name winners'
                : 'Sign and name winner'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
