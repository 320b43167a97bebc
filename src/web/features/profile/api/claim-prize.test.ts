import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { notYetPaysAt } from './claim-prize';

describe('notYetPaysAt', () => {
  const at = '2026-11-28T14:05:00.000Z';
  it("reads the window's end from the 409 of a claim made too early", () => {
    const body = JSON.stringify({ error: 'This prize is paid on 28 Nov 14:05', executesAt: at });
    expect(notYetPaysAt(new ApiError('x', 409, body))).toBe(at);
  });

  it('leaves every other failure to the error toast', () => {
    expect(
      notYetPaysAt(new ApiError('x', 409, JSON.stringify({ error: 'Prize already claimed' }))),
    ).toBeNull();
    expect(notYetPaysAt(new ApiError('x', 400, JSON.stringify({ error: 'e', executesAt: at })))).toBeNull();
    expect(notYetPaysAt(new ApiError('x', 409, 'not json'))).toBeNull();
    expect(notYetPaysAt(new Error('network'))).toBeNull();
  });
});
