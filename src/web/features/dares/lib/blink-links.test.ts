import { BLINKS_QUERY_PARAM } from '@solana/actions';
import { describe, expect, it } from 'vitest';
import { blinkLinks } from './blink-links';

describe('blinkLinks', () => {
  it("gives the dare's Action URL, its solana-action: URL and a dial.to blink that carries it", () => {
    const links = blinkLinks(42, 'https://darepool.example');
    expect(links.actionUrl).toBe('https://darepool.example/api/actions/dare/42');
    expect(links.solanaAction).toBe('solana-action:https://darepool.example/api/actions/dare/42');
    const blink = new URL(links.blinkUrl);
    expect(blink.origin).toBe('https://dial.to');
    // A blink client reads the spec's query parameter back to the solana-action: URL.
    expect(blink.searchParams.get(BLINKS_QUERY_PARAM)).toBe(links.solanaAction);
  });
});
