const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec: days left until a deadline, rounded up, 0 once it has passed; null without a deadline. */
export function daysLeft(deadline: string | Date | null | undefined, now: Date = new Date()): number | null {
  if (deadline === null || deadline === undefined || deadline === '') return null;
  const end = new Date(deadline).getTime();
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now.getTime()) / DAY_MS));
}
