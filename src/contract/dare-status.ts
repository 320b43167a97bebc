import type { DareStatus } from './limits';
import { DAY_MS } from './time';

/**
 * What a dare is, as every screen says it (badges, tiles, cards, the admin list): one rule and
 * one set of words, computed by the server and shown by the web. The stored status alone cannot
 * say it: an active row past its deadline has ended, and a cancelled one may have given its SOL
 * back.
 */
export const DARE_PHASES = ['active', 'ended', 'completed', 'refunding', 'refunded', 'cancelled'] as const;
export type DarePhase = (typeof DARE_PHASES)[number];

export const DARE_PHASE_WORDS: Record<DarePhase, string> = {
  active: 'Active',
  /** Past its deadline with no winner (yet): no 'Completed' for a dare nobody won. */
  ended: 'Ended',
  /** A winner was picked. */
  completed: 'Completed',
  /** Some of its payers were refunded, not all yet (issue 37, item 8): never 'Refunded' before it is. */
  refunding: 'Refunding',
  /** Its SOL went back to the wallets that paid it. */
  refunded: 'Refunded',
  cancelled: 'Cancelled',
};

/**
 * Why a dare was cancelled when it was not its own doing (stored with the dare; null for an
 * admin's Deactivate or an expiry): 'escrow_retired', its vault was of escrow program v1, whose
 * moderator key could still pay a pool out, so every open v1 vault is cancelled and refunded
 * (docs/decisions/050-retire-v1.md).
 */
export const DARE_CANCEL_REASONS = ['escrow_retired'] as const;
export type DareCancelReason = (typeof DARE_CANCEL_REASONS)[number];

/** The plain words a cancelled dare's page says for its reason, before and after its SOL went back. */
const CANCEL_REASON_WORDS: Record<DareCancelReason, { cancelled: string; refunded: string }> = {
  escrow_retired: {
    cancelled: "Cancelled: this dare's escrow was retired (program v1), every backer gets their SOL back",
    refunded: "Refunded: this dare's escrow was retired (program v1), every backer got their SOL back",
  },
};

/** What a dare's page says about why it ended as it did, or null when its phase says it all. */
export function phaseReason(phase: DarePhase, cancelReason: DareCancelReason | null): string | null {
  if (cancelReason === null) return null;
  if (phase === 'refunded') return CANCEL_REASON_WORDS[cancelReason].refunded;
  if (phase === 'cancelled' || phase === 'ended') return CANCEL_REASON_WORDS[cancelReason].cancelled;
  return null;
}

/** Days after the deadline when a dare without a winner refunds its payers (the vault's refund_after). */
export const REFUND_GRACE_DAYS = 7;
/**
 * The same grace in milliseconds: the moderation time in which a winner may be picked. After it,
 * with no payout, the refund job refunds every payer and the vault's refund_after lets anyone.
 */
export const REFUND_GRACE_MS = REFUND_GRACE_DAYS * DAY_MS;

/** When the refund of a dare that ends without a winner opens: its deadline plus the grace. */
export function refundsOpenAt(deadline: Date | string): Date {
  return new Date(new Date(deadline).getTime() + REFUND_GRACE_MS);
}

export function darePhase(
  dare: {
    status: DareStatus;
    deadline: Date | string | null;
    refundedBackers: number;
    /** Every wallet that paid into it; without it, any refund reads as all of them. */
    paidBackers?: number;
  },
  now: Date,
): DarePhase {
  if (dare.status === 'completed') return 'completed';
  // Refunds land on cancelled dares and, through 'Refund me', on overdue ones still stored active.
  if (dare.refundedBackers > 0)
    return dare.paidBackers !== undefined && dare.refundedBackers < dare.paidBackers
      ? 'refunding'
      : 'refunded';
  if (dare.status === 'cancelled') return 'cancelled';
  if (dare.deadline !== null && new Date(dare.deadline) <= now) return 'ended';
  return 'active';
}

/** What a dare page says on its disabled Add to Pool and Submit Video. */
export const CLOSED_WORDS = {
  deadlinePassed: 'The deadline has passed',
  noLongerTakesSol: 'This dare no longer takes SOL',
} as const;

/**
 * Why a dare takes no more SOL or proofs, or null while it does: read from the phase the server
 * computed (one rule), with the deadline passing while the page stays open.
 */
export function closedReason(
  dare: { phase: DarePhase; deadline: Date | string | null },
  now: Date,
): string | null {
  if (dare.phase === 'active')
    return dare.deadline !== null && new Date(dare.deadline) <= now ? CLOSED_WORDS.deadlinePassed : null;
  return dare.phase === 'ended' ? CLOSED_WORDS.deadlinePassed : CLOSED_WORDS.noLongerTakesSol;
}

/**
 * A dare that ended without a winner (overdue, cancelled or already refunding): its payers may be
 * owed their SOL back. The stored status cannot say it: an overdue dare reads 'completed'.
 */
export function endedWithoutWinner(phase: DarePhase): boolean {
  return phase === 'ended' || phase === 'cancelled' || phase === 'refunding' || phase === 'refunded';
}

/** 'Refunded 0.2 SOL to 2 backers': the line a refunded dare shows on its page, card and admin row. */
export function refundedLine(amountSol: string, backers: number): string {
  return `Refunded ${amountSol} SOL to ${backers} ${backers === 1 ? 'backer' : 'backers'}`;
}

/**
 * The line of a dare's refunds from what was booked: 'Refunded 0.07 SOL to 2 backers' once every
 * payer has theirs, 'Refunding: 1 of 2 backers refunded (0.05 of 0.07 SOL)' until then (issue 37,
 * item 8). Stakes and contributions only: the rent each record returns is not a payer's SOL.
 */
export function refundsLine(total: {
  amount: string;
  backers: number;
  paidAmount?: string;
  paidBackers?: number;
}): string {
  if (total.paidBackers === undefined || total.paidAmount === undefined || total.backers >= total.paidBackers)
    return refundedLine(total.amount, total.backers);
  return `Refunding: ${total.backers} of ${total.paidBackers} ${total.paidBackers === 1 ? 'backer' : 'backers'} refunded (${total.amount} of ${total.paidAmount} SOL)`;
}
