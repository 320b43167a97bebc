import { describe, expect, it } from 'vitest';
import { FINGERPRINT_TEXT, fingerprintStatus, shortFingerprint } from './fingerprint';

const HASH = 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9';

describe('a proof fingerprint as the dare page shows it', () => {
  it('shortens a SHA-256 to its first and last six digits', () => {
    expect(shortFingerprint(HASH)).toBe('b94d27…efcde9');
    expect(shortFingerprint('abc')).toBe('abc');
  });

  it('says whether the served video matches only when it is known', () => {
    expect(fingerprintStatus(true)).toEqual({ text: FINGERPRINT_TEXT.matches, tone: 'ok' });
    expect(fingerprintStatus(false)).toEqual({ text: FINGERPRINT_TEXT.mismatch, tone: 'warning' });
    expect(fingerprintStatus(null)).toBeNull();
  });
});
