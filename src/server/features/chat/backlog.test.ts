import { describe, expect, it } from 'vitest';
import { BEHIND_GRACE_MS, backlogGuard, MAX_UNSENT_BYTES, MAX_UNSENT_BYTES_AT_ONCE } from './backlog';

describe('backlogGuard', () => {
  it('keeps a socket whose unsent bytes pass the limit for less than the grace, and drops one that stays past it', () => {
    let clock = 0;
    const keepsUp = backlogGuard(() => clock);
    const behind = MAX_UNSENT_BYTES + 1;
    expect(keepsUp(MAX_UNSENT_BYTES)).toBe(true);
    // Two rooms' batches in one turn: past the limit for a moment, drained by the next write.
    expect(keepsUp(behind)).toBe(true);
    expect(keepsUp(behind * 2)).toBe(true);
    clock += BEHIND_GRACE_MS - 1;
    expect(keepsUp(10)).toBe(true);
    // Past the limit again: the grace starts over, and runs out.
    expect(keepsUp(behind)).toBe(true);
    clock += BEHIND_GRACE_MS - 1;
    expect(keepsUp(behind)).toBe(true);
    clock += 1;
    expect(keepsUp(behind)).toBe(false);
  });

  it('drops a socket at once past what one socket may cost', () => {
    const keepsUp = backlogGuard(() => 0);
    expect(keepsUp(MAX_UNSENT_BYTES_AT_ONCE)).toBe(true);
    expect(keepsUp(MAX_UNSENT_BYTES_AT_ONCE + 1)).toBe(false);
  });
});
