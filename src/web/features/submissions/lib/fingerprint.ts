/**
 * How a proof's fingerprint reads on the dare page (docs/decisions/038-proof-fingerprints.md):
 * short enough for a phone's line, whole on demand.
 */
export const FINGERPRINT_TEXT = {
  label: 'Fingerprint',
  matches: 'Matches the video',
  mismatch: 'The video no longer matches its fingerprint',
  copy: 'Copy fingerprint',
  copied: 'Fingerprint copied',
  copyFailed: 'Could not copy: select the fingerprint and copy it',
  showFull: 'Show the whole fingerprint',
  showShort: 'Show less',
} as const;

/** The first and last 6 hex digits: enough to compare by eye with a wallet or an explorer. */
export function shortFingerprint(hex: string): string {
  return hex.length <= 14 ? hex : `${hex.slice(0, 6)}…${hex.slice(-6)}`;
}

/** What is said about the served video, or null when nothing is known (a link, never checked). */
export function fingerprintStatus(proofMatches: boolean | null): {
  text: string;
  tone: 'ok' | 'warning';
} | null {
  if (proofMatches === null) return null;
  return proofMatches
    ? { text: FINGERPRINT_TEXT.matches, tone: 'ok' }
    : { text: FINGERPRINT_TEXT.mismatch, tone: 'warning' };
}
