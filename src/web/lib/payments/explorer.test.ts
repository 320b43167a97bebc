import { describe, expect, it } from 'vitest';
import { accountUrl, isExternalUrl, solanaExplorerLink, transactionUrl } from './explorer';

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

describe('solanaExplorerLink', () => {
  const custom =
    'https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899';

  it('links Solana Explorer next to our page when the embedded chain is served as a localnet', () => {
    expect(solanaExplorerLink({ explorerUrl: '/tx/{signature}', solanaExplorerUrl: custom }, 'abc')).toBe(
      'https://explorer.solana.com/tx/abc?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    );
  });

  it('adds nothing when the chain is not served or the first link already is Solana Explorer', () => {
    expect(solanaExplorerLink({ explorerUrl: '/tx/{signature}', solanaExplorerUrl: null }, 'abc')).toBeNull();
    const devnet = 'https://explorer.solana.com/tx/{signature}?cluster=devnet';
    expect(solanaExplorerLink({ explorerUrl: devnet, solanaExplorerUrl: devnet }, 'abc')).toBeNull();
  });
});

describe('accountUrl', () => {
  it("links an account on Solana Explorer with the transaction link's cluster", () => {
    expect(
      accountUrl(
        'https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
        'Vau1t',
      ),
    ).toBe(
      'https://explorer.solana.com/address/Vau1t?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899',
    );
    expect(accountUrl('https://explorer.solana.com/tx/{signature}', 'Vau1t')).toBe(
      'https://explorer.solana.com/address/Vau1t',
    );
  });

  it('has no link when Solana Explorer cannot read the chain', () => {
    expect(accountUrl(null, 'Vau1t')).toBeNull();
    expect(accountUrl('/tx/{signature}', 'Vau1t')).toBeNull();
  });
});
