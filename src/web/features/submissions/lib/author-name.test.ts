import { describe, expect, it } from 'vitest';
import { authorName } from './author-name';

describe('authorName', () => {
  it("is the author's username, or 'Unknown User' without one", () => {
    expect(authorName({ users: { username: 'alice' } })).toBe('alice');
    expect(authorName({ users: null })).toBe('Unknown User');
    expect(authorName({ users: { username: '' } })).toBe('Unknown User');
  });
});
