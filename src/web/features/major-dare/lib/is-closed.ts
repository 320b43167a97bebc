import type { DareStatus } from '#contract/limits';

/**
 * A major dare takes no more submissions once it is completed (a winner was picked), cancelled or
 * past its deadline: the page's button then reads 'Challenge Closed', and Home's card says the same.
 */
export function isMajorDareClosed(
  majorDare: { status: DareStatus; deadline: string | null },
  now: Date = new Date(),
): boolean {
  if (majorDare.status !== 'active') return true;
  return majorDare.deadline !== null && new Date(majorDare.deadline).getTime() <= now.getTime();
}
