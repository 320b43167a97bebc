import { describe, expect, it } from 'vitest';
import { deadlineProblem, effectiveStatus } from './dare-rules';
import { DARE_MESSAGES } from './dares';
import { DAY_MS } from './time';

const now = new Date('2026-03-01T12:00:00Z');

describe('effectiveStatus', () => {
  it('reads an active dare past its deadline as completed, from a Date or an ISO string', () => {
    expect(effectiveStatus({ status: 'active', deadline: new Date(now.getTime() - 1) }, now)).toBe(
      'completed',
    );
    expect(effectiveStatus({ status: 'active', deadline: now.toISOString() }, now)).toBe('completed');
    expect(effectiveStatus({ status: 'active', deadline: new Date(now.getTime() + 1) }, now)).toBe('active');
    expect(effectiveStatus({ status: 'active', deadline: null }, now)).toBe('active');
  });

  it('leaves a cancelled or completed dare as it is', () => {
    expect(effectiveStatus({ status: 'cancelled', deadline: new Date(0) }, now)).toBe('cancelled');
    expect(effectiveStatus({ status: 'completed', deadline: null }, now)).toBe('completed');
  });
});

describe('deadlineProblem', () => {
  it('takes a deadline ahead of now and at most deadlineMaxDays ahead', () => {
    expect(deadlineProblem(new Date(now.getTime() + 1), now)).toBeNull();
    expect(deadlineProblem(new Date(now.getTime() + 365 * DAY_MS), now)).toBeNull();
  });

  it('names what is wrong otherwise', () => {
    expect(deadlineProblem(now, now)).toBe(DARE_MESSAGES.deadlinePast);
    expect(deadlineProblem(new Date(now.getTime() + 365 * DAY_MS + 1), now)).toBe(
      DARE_MESSAGES.deadlineTooFar,
    );
  });
});
