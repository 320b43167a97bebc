import { describe, expect, it, vi } from 'vitest';
import type { Dare } from '#contract/dares';
import { WalletNotFoundError } from '#web/lib/payments/payment-wallet';
import { type AddToPoolDeps, runAddToPool } from './add-to-pool-flow';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const ESCROW = 'EscrowWa11et1111111111111111111111111111111';
const SIGNATURE = 'Sig'.padEnd(88, 'B');
const dare = { id: 7, escrowWallet: ESCROW };

function deps(overrides: Partial<AddToPoolDeps> = {}) {
  return {
    checkBalance: vi.fn(async () => 1_000_000_000n),
    connectWallet: vi.fn(async () => ({
      address: WALLET,
      walletName: 'E2E Test Wallet',
      signTransaction: async (tx: Uint8Array) => tx,
    })),
    createTransaction: vi.fn(async () => ({ transaction: 'AQID' })),
    sendTransaction: vi.fn(async () => SIGNATURE),
    addToPool: vi.fn(async () => ({ id: 7, totalPool: '0.51' }) as Dare),
    ...overrides,
  };
}

describe('runAddToPool', () => {
  it("pays the dare's escrow and credits it with the signature", async () => {
    const calls = deps();
    const onPaid = vi.fn();
    const updated = await runAddToPool(
      { dare, amount: '0.01', walletAddress: WALLET, network: 'localnet' },
      calls,
      onPaid,
    );
    expect(updated.dare.totalPool).toBe('0.51');
    expect(updated.signature).toBe(SIGNATURE);
    expect(calls.createTransaction).toHaveBeenCalledWith({
      fromWallet: WALLET,
      toWallet: ESCROW,
      amount: '0.01',
    });
    expect(calls.addToPool).toHaveBeenCalledWith(7, {
      amount: '0.01',
      userWallet: WALLET,
      transactionSignature: SIGNATURE,
    });
    expect(onPaid).toHaveBeenCalledWith({
      dareId: 7,
      walletAddress: WALLET,
      amount: '0.01',
      signature: SIGNATURE,
    });
  });

  it("gives the spec's texts for a missing wallet, wallet extension or escrow", async () => {
    await expect(
      runAddToPool({ dare, amount: '0.01', walletAddress: null, network: 'localnet' }, deps()),
    ).rejects.toThrow('Please connect your wallet first');
    await expect(
      runAddToPool(
        { dare: { id: 7, escrowWallet: null }, amount: '0.01', walletAddress: WALLET, network: 'localnet' },
        deps(),
      ),
    ).rejects.toThrow('Dare escrow wallet not found');
    const noWallet = deps({
      connectWallet: vi.fn(async () =>
        Promise.reject(new WalletNotFoundError('Phantom wallet not found. …')),
      ),
    });
    await expect(
      runAddToPool({ dare, amount: '0.01', walletAddress: WALLET, network: 'localnet' }, noWallet),
    ).rejects.toThrow(/^Phantom wallet not found$/);
  });

  it('checks the balance before asking the wallet, and asks nothing when SOL is short', async () => {
    const calls = deps({ checkBalance: vi.fn(async () => 1_500_000_000n) });
    await expect(
      runAddToPool({ dare, amount: '50', walletAddress: WALLET, network: 'localnet' }, calls),
    ).rejects.toThrow(/^Insufficient balance\. You have 1\.5 SOL on localnet, but need 50\.000005 SOL/);
    expect(calls.connectWallet).not.toHaveBeenCalled();
    expect(calls.createTransaction).not.toHaveBeenCalled();
    const unreadable = deps({ checkBalance: vi.fn(async () => Promise.reject(new Error('down'))) });
    await expect(
      runAddToPool({ dare, amount: '0.01', walletAddress: WALLET, network: 'localnet' }, unreadable),
    ).rejects.toThrow(/^Failed to get balance of account/);
    expect(unreadable.connectWallet).not.toHaveBeenCalled();
  });

  it("counts the receipt's rent a first contribution lends: a wallet holding only the amount and fee is not asked", async () => {
    // 0.01 SOL + the 0.000005 fee, but not the receipt's 0.00172608 of rent (decision 058).
    const calls = deps({ checkBalance: vi.fn(async () => 10_005_000n) });
    await expect(
      runAddToPool(
        { dare, amount: '0.01', walletAddress: WALLET, network: 'localnet', receiptRentSol: '0.00172608' },
        calls,
      ),
    ).rejects.toThrow(
      'Insufficient balance. You have 0.010005 SOL on localnet, but need 0.01173108 SOL (0.01 SOL + 0.000005 SOL fee + 0.00172608 SOL rent, returned when the dare ends)',
    );
    expect(calls.connectWallet).not.toHaveBeenCalled();
    const enough = deps({ checkBalance: vi.fn(async () => 11_731_080n) });
    await runAddToPool(
      { dare, amount: '0.01', walletAddress: WALLET, network: 'localnet', receiptRentSol: '0.00172608' },
      enough,
    );
    expect(enough.createTransaction).toHaveBeenCalled();
  });

  it('only repeats the credit for a contribution already on chain', async () => {
    const calls = deps();
    const paid = { dareId: 7, walletAddress: WALLET, amount: '0.01', signature: SIGNATURE };
    await runAddToPool({ dare, amount: '0.01', walletAddress: WALLET, network: 'localnet', paid }, calls);
    expect(calls.connectWallet).not.toHaveBeenCalled();
    expect(calls.sendTransaction).not.toHaveBeenCalled();
    expect(calls.addToPool).toHaveBeenCalledOnce();
  });
});
