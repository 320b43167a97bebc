import { ADMIN_MESSAGES } from '#contract/admin';
import type { ProposalWinner } from '#contract/judging';
import { MAJOR_DARE_MESSAGES, type WinnerType } from '#contract/major-dare';
import { solToLamports } from '#contract/money';
import type { DareOutcome } from '#contract/submissions';
import { Button } from '#web/components/ui/button';
import { formatSol, shortAddress } from '#web/lib/utils';
import { useJudgingOutcome } from '../api/get-judging-outcome';
import { markWinner } from '../api/mark-winner';
import { selectMajorWinner } from '../api/select-major-winner';
import { nameOfWallet, type ProofAuthors, pickedWinners } from '../lib/proof-authors';
import { NameWinnerButton, standingProposal } from './name-winner';

/** Who a proposal's winner is, for the lists: the username when the panel knows it. */
export function winnerNamer(authors: ProofAuthors) {
  return (winner: ProposalWinner) =>
    (winner.submissionId !== null ? authors.get(winner.submissionId)?.username : undefined) ??
    shortAddress(winner.walletAddress);
}

/** A disabled action with its reason as text beside it (issue 26: readable on a phone too). */
export function DisabledWithReason({ label, reason }: { label: string; reason: string | null }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <Button size="sm" variant="secondary" disabled>
        {label}
      </Button>
      {reason && <span className="text-xs text-muted-foreground">{reason}</span>}
    </span>
  );
}

/**
 * Mark Winner on a community dare's approved proof. Once a proposal stands, nobody names another:
 * the named proof's button says what it got, the others why they are off.
 */
export function CommunityWinnerAction({
  dareId,
  submissionId,
  username,
  authors,
  open,
}: {
  dareId: number;
  submissionId: number;
  username: string;
  authors: ProofAuthors;
  /** An approved proof of an active dare: a winner can be named (the server's rule). */
  open: boolean;
}) {
  const outcome = useJudgingOutcome(dareId).data;
  const standing = standingProposal(outcome);
  if (standing) {
    const mine = standing.winners.find((winner) => winner.submissionId === submissionId);
    return mine ? (
      <DisabledWithReason label={`Named winner: ${formatSol(mine.amount)}`} reason={null} />
    ) : (
      <DisabledWithReason label="Mark Winner" reason="A winner is already named" />
    );
  }
  // A v1 dare settled by the old rules shows its winner in the status badge instead.
  if (!open) return null;
  return (
    <NameWinnerButton
      dareId={dareId}
      label="Mark Winner"
      kind="dare"
      username={username}
      request={(signedTransaction) => markWinner({ id: submissionId, dareId, signedTransaction })}
      picked={pickedWinners(authors, [submissionId])}
      nameOfWallet={(wallet) => nameOfWallet(authors, wallet)}
      recordedTitle={ADMIN_MESSAGES.winnerMarked}
      failureTitle={ADMIN_MESSAGES.winnerFailed}
    />
  );
}

export interface ChosenPrize {
  submissionId: number | null;
  amount: string;
}

/**
 * A Major Dare's prizes chosen so far: the picks the server recorded (its winners), else the
 * standing proposal's two winners, the larger share being the admin's 70%.
 */
export function chosenPrizes(outcome: DareOutcome | undefined): Partial<Record<WinnerType, ChosenPrize>> {
  const chosen: Partial<Record<WinnerType, ChosenPrize>> = {};
  for (const winner of outcome?.winners ?? []) {
    if (winner.claimType === 'major_admin') chosen.admin = winner;
    if (winner.claimType === 'major_community') chosen.community = winner;
  }
  const standing = standingProposal(outcome);
  if (standing && standing.winners.length === 2 && !chosen.admin && !chosen.community) {
    const [larger, smaller] = [...standing.winners].sort((a, b) =>
      solToLamports(b.amount) > solToLamports(a.amount) ? 1 : -1,
    ) as [ProposalWinner, ProposalWinner];
    chosen.admin = larger;
    chosen.community = smaller;
  }
  return chosen;
}

const PRIZE_LABELS: Record<WinnerType, string> = {
  admin: 'Admin Winner (70%)',
  community: 'Community Winner (30%)',
};

/**
 * One Major Dare prize on a candidate: live while it is open on a v1 vault (a judged one names
 * both in Select Winners); once chosen, disabled on every row, the winner's naming the prize it
 * got and the others saying it is taken.
 */
export function MajorPrizeButton({
  dareId,
  submissionId,
  username,
  type,
  authors,
  variant = 'secondary',
}: {
  dareId: number;
  submissionId: number;
  username: string;
  type: WinnerType;
  authors: ProofAuthors;
  variant?: 'secondary' | 'default' | 'outline';
}) {
  const outcome = useJudgingOutcome(dareId).data;
  const picks = chosenPrizes(outcome);
  const chosen = picks[type];
  const label = PRIZE_LABELS[type];
  if (chosen) {
    return chosen.submissionId === submissionId ? (
      <DisabledWithReason label={`${label}: ${formatSol(chosen.amount)}`} reason={null} />
    ) : (
      <DisabledWithReason label={label} reason="Already chosen" />
    );
  }
  // A judged vault names both prizes at once, in one signature (decision 072), never one by one.
  if (outcome?.judging)
    return <DisabledWithReason label={label} reason={MAJOR_DARE_MESSAGES.pairInSelectWinners} />;
  return (
    <NameWinnerButton
      dareId={dareId}
      label={label}
      variant={variant}
      kind={type}
      username={username}
      request={(signedTransaction) =>
        selectMajorWinner({ dareId, submissionId, winnerType: type, signedTransaction })
      }
      picked={pickedWinners(
        authors,
        // This pick completes the pair with the other one recorded: admin's 70% first.
        type === 'admin'
          ? [submissionId, picks.community?.submissionId]
          : [picks.admin?.submissionId, submissionId],
      )}
      nameOfWallet={(wallet) => nameOfWallet(authors, wallet)}
      recordedTitle={MAJOR_DARE_MESSAGES.winnerSelected}
      failureTitle={MAJOR_DARE_MESSAGES.winnerFailed}
    />
  );
}
