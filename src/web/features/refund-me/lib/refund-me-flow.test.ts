import { describe, expect, it, vi } from 'vitest';
import { type RefundMeDeps, runRefundMe } from './refund-me-flow';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

function deps(overrides: Partial<RefundMeDeps> = {}) {
  return {
    requestTransaction: vi.fn(async () => ({ transaction: 'AQID' })),
    connectWallet: vi.fn(async () => ({
      address: WALLET,
      walletName: 'E2E Test Wallet',
      signTransaction: async (tx: Uint8Array) => new Uint8Array([...tx, 4]),
    })),
    send: vi.fn(async () => ({ signature: 'sig', amount: '250000000' })),
    ...overrides,
  };
}

describe('runRefundMe', () => {
  it('signs the refund the server built with the payer wallet and sends it back as signed', async () => {
    const calls = deps();
    expect(await runRefundMe({ dareId: 5, walletAddress: WALLET }, calls)).toEqual({
      signature: 'sig',
      amount: '250000000',
    });
    expect(calls.requestTransaction).toHaveBeenCalledWith(5);
    expect(calls.connectWallet).toHaveBeenCalledWith(WALLET);
    expect(calls.send).toHaveBeenCalledWith(5, 'AQIDBA==');
  });

  it('sends nothing when the wallet refuses to sign', async () => {
    const calls = deps({
      connectWallet: vi.fn(async () => ({
        address: WALLET,
        walletName: 'E2E Test Wallet',
        signTransaction: async () => {
          throw new Error('User rejected the request.');
        },
      })),
    });
    await expect(runRefundMe({ dareId: 5, walletAddress: WALLET }, calls)).rejects.toThrow('User rejected');
    expect(calls.send).not.toHaveBeenCalled();
  });
});
