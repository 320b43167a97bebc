import { DARE_LIMITS, DEADLINE_MESSAGES } from './dare-limits';
import type { DareStatus } from './limits';
import { DAY_MS } from './time';

/**
 * The status users see: an active dare past its deadline takes no more submissions or pool
 * additions and reads as completed. Its row stays 'active' until a winner is marked or the refund
 * job cancels it.
 */
export function effectiveStatus<Status extends string = DareStatus>(
  dare: { status: Status; deadline: Date | string | null },
  now: Date,
): Status | 'completed' {
  if (dare.status === 'active' && dare.deadline !== null && new Date(dare.deadline) <= now)
    return 'completed';
  return dare.status;
}

/**
 * A dare that takes no more submissions or pool additions: won, cancelled or past its deadline
 * (the Major Dare's 'Challenge Closed').
 */
export function isDareClosed(
  dare: { status: DareStatus; deadline: Date | string | null },
  now: Date,
): boolean {
  return effectiveStatus(dare, now) !== 'active';
}

/** Why a new dare's deadline is refused, or null: it must be ahead, and at most a year ahead. */
export function deadlineProblem(deadline: Date, now: Date): string | null {
  if (deadline <= now) return DEADLINE_MESSAGES.deadlinePast;
  if (deadline.getTime() - now.getTime() > DARE_LIMITS.deadlineMaxDays * DAY_MS)
    return DEADLINE_MESSAGES.deadlineTooFar;
  return null;
}
