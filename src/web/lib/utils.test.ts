import { describe, expect, it } from 'vitest';
import { countOf } from './utils';

describe('countOf', () => {
  it('puts the noun in the number English gives the count', () => {
    expect(countOf(1, 'win')).toBe('1 win');
    expect(countOf(0, 'win')).toBe('0 wins');
    expect(countOf(3, 'vote')).toBe('3 votes');
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});
