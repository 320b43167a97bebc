import { useEffect, useState } from 'react';
import type { ProposalWinner } from '#contract/judging';
import { lamportsToSol } from '#contract/money';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { useConfig } from '#web/lib/config';
import { useDare } from '#web/lib/dare';
import { lazyConnectJudgeWallet } from '#web/lib/payments/lazy-payment-wallet';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { proposalSentence } from '#web/lib/payout-window';
import { formatSol, shortAddress } from '#web/lib/utils';
import { useJudgingOutcome } from '../api/get-judging-outcome';
import { type NamingStep, signAndRelay } from '../lib/name-winners';
import { PROPOSE_CHECK_MESSAGES } from '../lib/propose-check-messages';
import type { CheckedPropose, ProposeCheck, ProposeExpectations } from '../lib/verify-propose';

type Verifier = typeof import('../lib/verify-propose');

/**
 * The propose transaction, decoded and checked here (verify-propose.ts, fetched with the dialog)
 * against what this page knows apart from the answer carrying it: the program id (config), the
 * dare's vault and kind (the dare), its judges (its outcome), and the winners picked. null while
 * any of them loads: the Sign button stays off until the check passes.
 */
function useProposeCheck(input: {
  dareId: number;
  transaction: string;
  claimed: readonly ProposalWinner[];
  picked: ProposeExpectations['picked'];
}): ProposeCheck | null {
  const { data: config } = useConfig();
  const { data: dare } = useDare(input.dareId);
  const judging = useJudgingOutcome(input.dareId).data?.judging;
  const [verifier, setVerifier] = useState<Verifier | null>(null);
  useEffect(() => {
    let current = true;
    void import('../lib/verify-propose').then((loaded) => current && setVerifier(loaded));
    return () => {
      current = false;
    };
  }, []);
  if (!verifier || !config || !dare || judging === undefined) return null;
  if (!dare.escrowWallet || !judging) return { ok: false, reason: PROPOSE_CHECK_MESSAGES.notJudged };
  return verifier.checkPropose(input.transaction, input.claimed, {
    programId: config.escrowProgramV2Id,
    vault: dare.escrowWallet,
    isMajor: dare.isMajor,
    judges: judging.judges,
    picked: input.picked,
  });
}

/** The winners as the transaction pays them: who, which wallet, which share. */
function DecodedWinners({
  propose,
  nameOfWallet,
}: {
  propose: CheckedPropose;
  nameOfWallet: (wallet: string) => string;
}) {
  return (
    <div className="space-y-1 text-xs">
      <p className="text-muted-foreground">Checked in the transaction your wallet signs:</p>
      <ul aria-label="Winners in the transaction" className="space-y-1">
        {propose.winners.map((winner) => (
          <li key={winner.walletAddress + winner.percent} className="break-words">
            <span className="font-medium">{nameOfWallet(winner.walletAddress)}</span> ·{' '}
            <span title={winner.walletAddress}>{shortAddress(winner.walletAddress)}</span> · {winner.percent}
            %: {formatSol(lamportsToSol(winner.lamports))}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The confirmation of issue 24: "Name walker1 the winner?" and what happens, then the judge's
 * wallet signs. What it names is what the transaction pays, read by this page. A failure (a
 * transaction that is not what was picked, no judge's wallet here, a rejected signature, the
 * server's refusal) stays in the dialog as text, readable at any width.
 */
export function ProposeDialog({
  dareId,
  propose,
  picked,
  signers,
  nameOfWallet,
  send,
  onClose,
  onDone,
}: {
  dareId: number;
  propose: { transaction: string; winners: readonly ProposalWinner[]; executesAt: string };
  /** The wallets the judge picked, in share order; null when co-signing another judge's picks. */
  picked: ProposeExpectations['picked'];
  /** The judges' wallets that may sign here (those who have not yet). */
  signers: readonly string[];
  nameOfWallet: (wallet: string) => string;
  send: (signedTransaction: string) => Promise<unknown>;
  onClose: () => void;
  onDone: (step: NamingStep) => void;
}) {
  const { data: config } = useConfig();
  const check = useProposeCheck({
    dareId,
    transaction: propose.transaction,
    claimed: propose.winners,
    picked,
  });
  const [signing, setSigning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const checked = check?.ok ? check.propose : null;
  const sentence = checked
    ? proposalSentence(
        checked.winners.map((winner) => ({
          name: nameOfWallet(winner.walletAddress),
          amount: lamportsToSol(winner.lamports),
        })),
        propose.executesAt,
      )
    : null;
  const sign = async (verified: CheckedPropose) => {
    setSigning(true);
    setFailure(null);
    try {
      // Only a judge the transaction asks for can add a signature that counts.
      const judges = signers.filter((judge) => verified.judgeSlots.includes(judge));
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
          <DialogTitle>
            {sentence?.question ??
              (check ? PROPOSE_CHECK_MESSAGES.notSigned : PROPOSE_CHECK_MESSAGES.checking)}
          </DialogTitle>
          <DialogDescription>
            {sentence?.detail ?? (check && !check.ok ? PROPOSE_CHECK_MESSAGES.refused : 'One moment.')}
          </DialogDescription>
        </DialogHeader>
        {check && !check.ok && (
          <p role="alert" className="text-sm break-words text-destructive">
            {check.reason}
          </p>
        )}
        {checked && <DecodedWinners propose={checked} nameOfWallet={nameOfWallet} />}
        {checked && (
          <p className="text-xs text-muted-foreground">
            Your wallet signs the proposal; it is public on chain from now until it pays.
          </p>
        )}
        {failure && (
          <p role="alert" className="text-sm break-words text-destructive">
            {failure}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" disabled={signing} onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={signing || !checked} onClick={() => checked && void sign(checked)}>
            {signing
              ? 'Signing…'
              : (checked?.winners.length ?? propose.winners.length) > 1
                ? 'Sign and name winners'
                : 'Sign and name winner'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
