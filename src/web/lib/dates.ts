import { DARE_PHASE_WORDS, type DarePhase } from '#contract/dare-status';

const DAY_MS = 24 * 60 * 60 * 1000;

/** docs/product.md#limits-and-constants: days left until a deadline, rounded up, 0 once it has passed; null without a deadline. */
export function daysLeft(deadline: string | Date | null | undefined, now: Date = new Date()): number | null {
  if (deadline === null || deadline === undefined || deadline === '') return null;
  const end = new Date(deadline).getTime();
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS));
}

/**
 * What a dare shows where its days left would be: its status word once it is over (the server's
 * `phase` when it sends one: Ended, Completed, Refunded, Cancelled), else 'N days left'; null
 * without a deadline.
 */
export function timeLeftLabel(
  dare: { status: string; deadline: string | Date | null | undefined; phase?: DarePhase },
  now: Date = new Date(),
): string | null {
  if (dare.phase !== undefined && dare.phase !== 'active') return DARE_PHASE_WORDS[dare.phase];
  if (dare.status === 'cancelled') return 'Cancelled';
  if (dare.status === 'completed') return 'Ended';
  const left = daysLeft(dare.deadline, now);
  if (left === null) return null;
  if (left === 0) return 'Ended';
  return `${left} ${left === 1 ? 'day' : 'days'} left`;
}
