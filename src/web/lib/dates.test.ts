import { describe, expect, it } from 'vitest';
import { daysLeft } from './dates';

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
