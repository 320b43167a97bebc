import { DARE_PHASE_WORDS, type DarePhase } from '#contract/dare-status';
import { DAY_MS } from '#contract/time';

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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * '28 Nov 14:05': when a payout window ends, in the reader's zone (or `timeZone`). Built from
 * parts so every browser writes it the same way (Intl puts commas and 'at' in some locales).
 */
export function formatDayTime(at: string | Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${Number(part('day'))} ${MONTHS[Number(part('month')) - 1]} ${part('hour')}:${part('minute')}`;
}

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** '24 hours from now', '3 days from now', '5 minutes from now': how far ahead `at` is, rounded. */
export function fromNowLabel(at: string | Date, now: Date = new Date()): string {
  const ms = new Date(at).getTime() - now.getTime();
  if (ms < MINUTE_MS) return 'in under a minute';
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} from now`;
  if (ms >= 2 * DAY_MS) return plural(Math.round(ms / DAY_MS), 'day');
  if (ms >= HOUR_MS) return plural(Math.round(ms / HOUR_MS), 'hour');
  return plural(Math.round(ms / MINUTE_MS), 'minute');
}

/** A live countdown: '23h 59m 58s', '2d 3h 4m' past a day, '0s' once `at` has passed. */
export function countdownLabel(at: string | Date, now: Date = new Date()): string {
  const left = Math.max(0, new Date(at).getTime() - now.getTime());
  const seconds = Math.floor(left / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds % 60}s`;
  if (minutes > 0) return `${minutes}m ${seconds % 60}s`;
  return `${seconds % 60}s`;
}
