import { deadlineProblem } from '#contract/dare-rules';
import { DARE_MESSAGES } from '#contract/dares';

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/**
 * A datetime-local value ('2026-05-01T18:30', the user's wall clock) as the instant it names.
 * Parsed by hand: `new Date(text)` treats offset-less forms inconsistently across engines.
 * Null for anything that is not a real local date and time (e.g. '2026-02-30T10:00').
 */
export function parseLocalDateTime(value: string): Date | null {
  const match = LOCAL_DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = '0'] = match.slice(1).map((part) => part ?? '0');
  const date = new Date(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  const roundTrips =
    date.getFullYear() === Number(year) &&
    date.getMonth() === Number(month) - 1 &&
    date.getDate() === Number(day) &&
    date.getHours() === Number(hour) &&
    date.getMinutes() === Number(minute);
  return roundTrips ? date : null;
}

/** The same instant as an ISO 8601 string with an offset ('Z'), what POST /api/dares expects. */
export function localDateTimeToIso(value: string): string | null {
  return parseLocalDateTime(value)?.toISOString() ?? null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A date as a datetime-local value in the user's time zone: the input's `min`. */
export function toLocalDateTimeValue(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * The deadline rules the server applies when the record is written (a real local date and time,
 * then #contract/dare-rules' deadlineProblem: in the future, at most DARE_LIMITS.deadlineMaxDays
 * ahead), checked before any SOL moves: the server can only judge them after the stake is paid.
 */
export function checkDeadline(
  value: string,
  now: Date = new Date(),
): { ok: true; deadline: Date } | { ok: false; error: string } {
  const deadline = parseLocalDateTime(value);
  if (!deadline) return { ok: false, error: DARE_MESSAGES.deadlineFormat };
  const problem = deadlineProblem(deadline, now);
  return problem ? { ok: false, error: problem } : { ok: true, deadline };
}
