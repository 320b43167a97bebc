import { describe, expect, it } from 'vitest';
import { isMajorDareClosed } from './is-closed';

const now = new Date('2026-05-01T12:00:00Z');

describe('isMajorDareClosed', () => {
  it('is open while active and before its deadline, or active without one', () => {
    expect(isMajorDareClosed({ status: 'active', deadline: '2026-05-01T12:00:01Z' }, now)).toBe(false);
    expect(isMajorDareClosed({ status: 'active', deadline: null }, now)).toBe(false);
  });

  it('is closed once completed or cancelled, whatever the deadline', () => {
    expect(isMajorDareClosed({ status: 'completed', deadline: '2026-06-01T00:00:00Z' }, now)).toBe(true);
    expect(isMajorDareClosed({ status: 'cancelled', deadline: null }, now)).toBe(true);
  });

  it('is closed at and after its deadline', () => {
    expect(isMajorDareClosed({ status: 'active', deadline: '2026-05-01T12:00:00Z' }, now)).toBe(true);
    expect(isMajorDareClosed({ status: 'active', deadline: '2026-04-30T00:00:00Z' }, now)).toBe(true);
  });
});
