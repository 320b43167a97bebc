import { describe, expect, it } from 'vitest';
import { localDateTimeToIso, parseLocalDateTime, toLocalDateTimeValue } from './deadline';

describe('parseLocalDateTime', () => {
  it("reads a datetime-local value as the user's wall-clock time", () => {
    expect(parseLocalDateTime('2026-05-01T18:30')?.getTime()).toBe(new Date(2026, 4, 1, 18, 30).getTime());
    expect(parseLocalDateTime('2026-05-01T18:30:15')?.getTime()).toBe(
      new Date(2026, 4, 1, 18, 30, 15).getTime(),
    );
  });

  it('refuses text that is not a real date and time', () => {
    for (const text of ['', '2026-05-01', '2026-02-30T10:00', '2026-05-01T25:00', 'tomorrow']) {
      expect(parseLocalDateTime(text)).toBeNull();
    }
  });
});

describe('localDateTimeToIso', () => {
  it('gives the same instant as an ISO string with an offset', () => {
    const iso = localDateTimeToIso('2026-05-01T18:30')!;
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(new Date(iso).getTime()).toBe(new Date(2026, 4, 1, 18, 30).getTime());
  });
});

describe('toLocalDateTimeValue', () => {
  it('round-trips through parseLocalDateTime to the minute', () => {
    const date = new Date(2026, 0, 9, 7, 5);
    expect(toLocalDateTimeValue(date)).toBe('2026-01-09T07:05');
    expect(parseLocalDateTime(toLocalDateTimeValue(date))?.getTime()).toBe(date.getTime());
  });
});
