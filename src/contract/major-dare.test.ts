import { describe, expect, it } from 'vitest';
import { splitMajorPrize } from './major-dare';

describe('splitMajorPrize', () => {
  it('gives 30% (rounded down) to the community winner and the rest, remainder included, to the admin winner', () => {
    expect(splitMajorPrize(100_000_000n)).toEqual({ admin: 70_000_000n, community: 30_000_000n });
    expect(splitMajorPrize(100_000_007n)).toEqual({ admin: 70_000_005n, community: 30_000_002n });
    expect(splitMajorPrize(1n)).toEqual({ admin: 1n, community: 0n });
  });

  it('never loses or invents a lamport', () => {
    for (let pool = 0n; pool < 2_000n; pool += 7n) {
      const { admin, community } = splitMajorPrize(pool);
      expect(admin + community).toBe(pool);
      expect(community * 100n <= pool * 30n).toBe(true);
      expect((community + 1n) * 100n > pool * 30n).toBe(true);
    }
  });
});
