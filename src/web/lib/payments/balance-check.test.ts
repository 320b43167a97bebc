import { describe, expect, it } from 'vitest';
import { balanceUnavailableMessage, checkAffordable } from './balance-check';

const walletAddress = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

describe('checkAffordable', () => {
  it('accepts a balance covering the stake plus the 0.000005 SOL fee, to the lamport', () => {
    expect(
      checkAffordable({ balance: 1_000_005_000n, amount: '1', network: 'devnet', walletAddress }),
    ).toBeNull();
  });

  it("gives the spec's message, naming the configured network, one lamport short", () => {
    expect(
      checkAffordable({ balance: 1_000_004_999n, amount: '1', network: 'localnet', walletAddress }),
    ).toBe(
      'Insufficient balance. You have 1.000004999 SOL on localnet, but need 1.000005 SOL ' +
        `(1 SOL + 0.000005 SOL fee). Please add SOL to your wallet: ${walletAddress}`,
    );
  });

  it("counts a new vault's rent (lent, returned when the dare ends), to the lamport, and says so", () => {
    const input = { amount: '1', network: 'localnet', walletAddress, rentSol: '0.005568' };
    expect(checkAffordable({ ...input, balance: 1_005_573_000n })).toBeNull();
    expect(checkAffordable({ ...input, balance: 1_005_572_999n })).toBe(
      'Insufficient balance. You have 1.005572999 SOL on localnet, but need 1.005573 SOL ' +
        '(1 SOL + 0.000005 SOL fee + 0.005568 SOL rent, returned when the dare ends). ' +
        `Please add SOL to your wallet: ${walletAddress}`,
    );
  });

  it('counts the network fee of the moment, priority fee included, when the server names it', () => {
    // A busy cluster: 0.000005 SOL base fee + 0.000012 SOL priority fee.
    const input = { amount: '1', network: 'mainnet', walletAddress, feeSol: '0.000017' };
    expect(checkAffordable({ ...input, balance: 1_000_017_000n })).toBeNull();
    expect(checkAffordable({ ...input, balance: 1_000_016_999n })).toContain(
      'but need 1.000017 SOL (1 SOL + 0.000017 SOL fee)',
    );
  });

  it('writes amounts as exact decimals, never floats', () => {
    expect(checkAffordable({ balance: 0n, amount: '0.30', network: 'mainnet', walletAddress })).toContain(
      'You have 0 SOL on mainnet, but need 0.300005 SOL (0.3 SOL + 0.000005 SOL fee)',
    );
  });
});

describe('balanceUnavailableMessage', () => {
  it('names the account by its short address', () => {
    expect(balanceUnavailableMessage(walletAddress)).toBe(
      'Failed to get balance of account 9xQe…VFin. Please check your wallet connection and try again.',
    );
  });
});
