import { describe, expect, it } from 'vitest';
import { isDareClosed } from './dare-rules';

const now = new Date('2026-05-01T12:00:00Z');

describe('isDareClosed', () => {
  it('is open while active and before its deadline, or active without one', () => {
    expect(isDareClosed({ status: 'active', deadline: '2026-05-01T12:00:01Z' }, now)).toBe(false);
    expect(isDareClosed({ status: 'active', deadline: null }, now)).toBe(false);
  });

  it('is closed once completed or cancelled, whatever the deadline', () => {
    expect(isDareClosed({ status: 'completed', deadline: '2026-06-01T00:00:00Z' }, now)).toBe(true);
    expect(isDareClosed({ status: 'cancelled', deadline: null }, now)).toBe(true);
  });

  it('is closed at and after its deadline', () => {
    expect(isDareClosed({ status: 'active', deadline: '2026-05-01T12:00:00Z' }, now)).toBe(true);
    expect(isDareClosed({ status: 'active', deadline: '2026-04-30T00:00:00Z' }, now)).toBe(true);
  });
});
