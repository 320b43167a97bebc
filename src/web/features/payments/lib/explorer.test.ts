import { describe, expect, it } from 'vitest';
import { isExternalUrl, transactionUrl } from './explorer';

describe('transactionUrl', () => {
  it("fills the server's template: the local page or a public explorer", () => {
    expect(transactionUrl('/tx/{signature}', 'abc123')).toBe('/tx/abc123');
    expect(transactionUrl('https://explorer.solana.com/tx/{signature}?cluster=devnet', 'abc123')).toBe(
      'https://explorer.solana.com/tx/abc123?cluster=devnet',
    );
  });

  it('tells our own page from an external explorer', () => {
    expect(isExternalUrl('/tx/abc')).toBe(false);
    expect(isExternalUrl('https://explorer.solana.com/tx/abc')).toBe(true);
  });
});
