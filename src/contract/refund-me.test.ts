import { describe, expect, it } from 'vitest';
import { formatUtcInstant, REFUND_ME_MESSAGES } from './refund-me';

describe('formatUtcInstant', () => {
  it('spells an instant out in UTC, whatever the local zone', () => {
    expect(formatUtcInstant(new Date('2026-12-04T02:29:41.000Z'))).toBe('4 Dec 2026, 02:29 UTC');
    expect(formatUtcInstant(new Date('2027-01-31T23:05:00.000Z'))).toBe('31 Jan 2027, 23:05 UTC');
  });

  it("reads as a date in 'Refunds of this dare open on …'", () => {
    expect(REFUND_ME_MESSAGES.notDue(new Date('2026-12-04T02:29:41.000Z'))).toBe(
      'Refunds of this dare open on 4 Dec 2026, 02:29 UTC',
    );
  });
});
