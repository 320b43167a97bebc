/** How a proposal's times and memos are shown to a person (the guardian's script). */

/** "2026-11-28 14:05 UTC" */
export function utcMinute(unixSeconds: bigint): string {
  return `${new Date(Number(unixSeconds) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "in 5 h 3 min", "in 2 d 4 h 0 min", "in 12 min", "in 40 s"; "in 0 s" once passed. */
export function timeUntil(seconds: bigint): string {
  if (seconds < 60n) return `in ${seconds < 0n ? 0n : seconds} s`;
  const days = seconds / 86_400n;
  const hours = (seconds % 86_400n) / 3600n;
  const minutes = (seconds % 3600n) / 60n;
  if (days > 0n) return `in ${days} d ${hours} h ${minutes} min`;
  return hours > 0n ? `in ${hours} h ${minutes} min` : `in ${minutes} min`;
}

/**
 * A memo is whatever text a transaction carried: control characters (terminal escape sequences)
 * and bidirectional overrides (text that displays as something else) never reach the screen.
 */
export function printableMemo(text: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
