import { describe, expect, it } from 'vitest';
import { shareUrl } from './share-url';

describe('shareUrl', () => {
  it('prefills the composer with the title, description and page URL', () => {
    const link = new URL(
      shareUrl({ title: 'Lake jump', description: 'Jump & swim', url: 'https://darepool.test/dare/7' }),
    );
    expect(link.origin + link.pathname).toBe('https://twitter.com/intent/tweet');
    expect(link.searchParams.get('text')).toBe('Lake jump\n\nJump & swim');
    expect(link.searchParams.get('url')).toBe('https://darepool.test/dare/7');
  });

  it('shortens a long description so the post fits', () => {
    const text = new URL(
      shareUrl({ title: 'T', description: 'a'.repeat(500), url: 'https://x.test/' }),
    ).searchParams.get('text');
    expect(text).toHaveLength(3 + 200);
    expect(text?.endsWith('…')).toBe(true);
  });
});
