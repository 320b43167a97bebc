import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { countdownLabel, daysLeft, formatDayTime, fromNowLabel } from './dates';

const now = new Date('2026-05-01T12:00:00Z');

describe('daysLeft', () => {
  it('rounds a part day up', () => {
    expect(daysLeft('2026-05-01T12:00:01Z', now)).toBe(1);
    expect(daysLeft('2026-05-03T11:00:00Z', now)).toBe(2);
    expect(daysLeft('2026-05-03T12:00:00Z', now)).toBe(2);
    expect(daysLeft('2026-05-03T12:00:01Z', now)).toBe(3);
  });

  it('is 0 at and after the deadline', () => {
    expect(daysLeft('2026-05-01T12:00:00Z', now)).toBe(0);
    expect(daysLeft('2026-04-01T00:00:00Z', now)).toBe(0);
  });

  it('is null without a usable deadline', () => {
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft('', now)).toBeNull();
    expect(daysLeft('not a date', now)).toBeNull();
  });
});

describe('formatDayTime', () => {
  it('writes the day, short month and 24-hour time', () => {
    expect(formatDayTime('2026-11-28T14:05:00Z', 'UTC')).toBe('28 Nov 14:05');
    expect(formatDayTime('2026-01-03T00:07:00Z', 'UTC')).toBe('3 Jan 00:07');
    expect(formatDayTime('2026-11-28T23:30:00Z', 'Europe/Paris')).toBe('29 Nov 00:30');
  });
});

describe('fromNowLabel', () => {
  it('rounds to the largest unit that reads naturally', () => {
    expect(fromNowLabel(new Date(now.getTime() + DAY_MS - 3_000), now)).toBe('24 hours from now');
    expect(fromNowLabel(new Date(now.getTime() + 3600_000), now)).toBe('1 hour from now');
    expect(fromNowLabel(new Date(now.getTime() + 72 * 3600_000), now)).toBe('3 days from now');
    expect(fromNowLabel(new Date(now.getTime() + 5 * 60_000), now)).toBe('5 minutes from now');
    expect(fromNowLabel(new Date(now.getTime() + 10_000), now)).toBe('in under a minute');
    expect(fromNowLabel(new Date(now.getTime() - 10_000), now)).toBe('in under a minute');
  });
});

describe('countdownLabel', () => {
  it('counts down and stops at 0s', () => {
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(countdownLabel(at(DAY_MS - 2_000), now)).toBe('23h 59m 58s');
    expect(countdownLabel(at(2 * DAY_MS + 3 * 3600_000 + 4 * 60_000), now)).toBe('2d 3h 4m');
    expect(countdownLabel(at(65_000), now)).toBe('1m 5s');
    expect(countdownLabel(at(999), now)).toBe('0s');
    expect(countdownLabel(at(-5_000), now)).toBe('0s');
  });
});
