import { describe, expect, it } from 'vitest';
import { CREATE_DARE_FORM_DEFAULTS } from '#contract/dares';
import { toLocalDateTimeValue } from '#web/lib/deadline';
import { validateCreateDareForm } from './validate-create-dare-form';

const now = new Date(2026, 4, 1, 12, 0);
const tomorrow = toLocalDateTimeValue(new Date(2026, 4, 2, 12, 0));
const filled = {
  ...CREATE_DARE_FORM_DEFAULTS,
  title: 'Cold shower',
  description: 'Five minutes, on video',
  stakeAmount: '0.50',
  deadline: tomorrow,
};

describe('validateCreateDareForm', () => {
  it("gives the spec's messages for an empty form", () => {
    const result = validateCreateDareForm({ ...CREATE_DARE_FORM_DEFAULTS, stakeAmount: '' }, now);
    expect(result).toEqual({
      ok: false,
      errors: {
        title: 'Title is required',
        description: 'Description is required',
        stakeAmount: 'Stake amount is required',
        deadline: 'Deadline is required',
      },
    });
  });

  it("gives the spec's 5 SOL message, naming the amount tried", () => {
    const result = validateCreateDareForm({ ...filled, stakeAmount: '5.5' }, now);
    expect(result).toEqual({
      ok: false,
      errors: { stakeAmount: 'Please use stake amounts of 5 SOL or less. You tried to stake 5.5 SOL' },
    });
  });

  it('refuses a deadline in the past before any SOL moves', () => {
    const result = validateCreateDareForm(
      { ...filled, deadline: toLocalDateTimeValue(new Date(2026, 3, 30)) },
      now,
    );
    expect(result).toEqual({ ok: false, errors: { deadline: 'Deadline must be in the future' } });
  });

  it('refuses a deadline more than a year ahead', () => {
    const result = validateCreateDareForm({ ...filled, deadline: '2027-06-01T12:00' }, now);
    expect(result).toEqual({ ok: false, errors: { deadline: 'Deadline must be within 365 days' } });
  });

  it('answers the canonical stake and the deadline as an ISO instant', () => {
    const result = validateCreateDareForm(filled, now);
    expect(result).toEqual({
      ok: true,
      value: {
        title: 'Cold shower',
        description: 'Five minutes, on video',
        stakeAmount: '0.5',
        difficulty: 'medium',
        category: 'creative',
        visibility: 'public',
        deadline: new Date(2026, 4, 2, 12, 0).toISOString(),
      },
    });
  });
});
