import { describe, expect, it, vi } from 'vitest';
import type { CreateDareRequest, Dare } from '#contract/dares';
import { ApiError } from '#web/lib/api-client';
import type { CreateDareStepId, StepStatus } from '#web/lib/payments/escrow-funding-steps';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { type CreateDareFlowDeps, type PaidStake, runCreateDare } from './create-dare-flow';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const ESCROW = 'EscrowWa11et1111111111111111111111111111111';
const SIGNATURE = '5h3kT9xQ'.padEnd(88, 'A');

const form = {
  title: 'Cold shower',
  description: 'Five minutes',
  stakeAmount: '0.5',
  difficulty: 'medium' as const,
  category: 'creative' as const,
  deadline: '2026-05-02T10:00:00.000Z',
  visibility: 'public' as const,
};

function setup(overrides: Partial<CreateDareFlowDeps> = {}) {
  const signer: PaymentSigner = {
    address: WALLET,
    walletName: 'E2E Test Wallet',
    signTransaction: vi.fn(async (tx: Uint8Array) => Uint8Array.from([...tx, 9])),
  };
  const deps = {
    connectWallet: vi.fn(async () => signer),
    checkBalance: vi.fn(async () => 2_000_000_000n),
    createEscrowWallet: vi.fn(async () => ({ publicKey: ESCROW })),
    createTransaction: vi.fn(async () => ({
      transaction: Buffer.from([1, 2, 3]).toString('base64'),
      reference: 'ref',
      lamports: '500000000',
      lastValidBlockHeight: '100',
    })),
    sendTransaction: vi.fn(async () => SIGNATURE),
    createDare: vi.fn(async (request: CreateDareRequest) => ({ id: 42, ...request }) as unknown as Dare),
    ...overrides,
  };
  const log: string[] = [];
  const paid: PaidStake[] = [];
  const events = {
    onStep: (id: CreateDareStepId, status: StepStatus) => log.push(`${id}:${status}`),
    onPaid: (stake: PaidStake) => paid.push(stake),
  };
  return { deps, events, log, paid, signer };
}

const ALL_DONE = ['connect', 'balance', 'escrow', 'build', 'sign', 'send', 'record'].flatMap((id) => [
  `${id}:running`,
  `${id}:done`,
]);

describe('runCreateDare', () => {
  it('sends a private dare as isPublic: false (issue 37, item 13)', async () => {
    const { deps, events } = setup();
    await runCreateDare(
      {
        form: { ...form, visibility: 'private' },
        walletAddress: WALLET,
        cluster: 'localnet',
        vaultRentSol: '0',
      },
      deps,
      events,
    );
    expect(deps.createDare).toHaveBeenCalledWith(expect.objectContaining({ isPublic: false }));
    expect(deps.createDare).not.toHaveBeenCalledWith(expect.objectContaining({ visibility: 'private' }));
  });

  it('runs the seven steps in order and records the dare with the signature', async () => {
    const { deps, events, log, paid } = setup();
    const result = await runCreateDare(
      { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' },
      deps,
      events,
    );

    expect(log).toEqual(ALL_DONE);
    expect(result.signature).toBe(SIGNATURE);
    // The new vault takes the dare's deadline and kind (docs/decisions/021).
    expect(deps.createTransaction).toHaveBeenCalledWith({
      fromWallet: WALLET,
      toWallet: ESCROW,
      amount: '0.5',
      deadline: form.deadline,
      kind: 'community',
      title: form.title,
      description: form.description,
    });
    // The wallet signed the server's bytes; the signed bytes went to send, base64.
    expect(deps.sendTransaction).toHaveBeenCalledWith(Buffer.from([1, 2, 3, 9]).toString('base64'));
    const { visibility: _, ...fields } = form;
    expect(deps.createDare).toHaveBeenCalledWith({
      ...fields,
      maxParticipants: 10,
      isPublic: true,
      tags: [],
      imageUrl: null,
      userWallet: WALLET,
      transactionSignature: SIGNATURE,
      network: 'localnet',
      escrowWalletAddress: ESCROW,
    });
    expect(paid).toEqual([
      {
        walletAddress: WALLET,
        stakeAmount: '0.5',
        escrowWalletAddress: ESCROW,
        signature: SIGNATURE,
        deadline: form.deadline,
        kind: 'community',
      },
    ]);
  });

  it('stops at the balance step with the insufficient-balance text, before any escrow or signing', async () => {
    const { deps, events, log } = setup({ checkBalance: vi.fn(async () => 500_000_000n) });
    await expect(
      runCreateDare({ form, walletAddress: WALLET, cluster: 'devnet', vaultRentSol: '0' }, deps, events),
    ).rejects.toThrow(
      `Insufficient balance. You have 0.5 SOL on devnet, but need 0.500005 SOL (0.5 SOL + 0.000005 SOL fee). Please add SOL to your wallet: ${WALLET}`,
    );
    expect(log).toEqual(['connect:running', 'connect:done', 'balance:running', 'balance:failed']);
    expect(deps.createEscrowWallet).not.toHaveBeenCalled();
  });

  it('does not assume a balance when the balance call fails', async () => {
    const { deps, events } = setup({ checkBalance: vi.fn(async () => Promise.reject(new Error('offline'))) });
    await expect(
      runCreateDare({ form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' }, deps, events),
    ).rejects.toThrow(
      'Failed to get balance of account 9xQe…VFin. Please check your wallet connection and try again.',
    );
    expect(deps.createEscrowWallet).not.toHaveBeenCalled();
  });

  it('marks the signing step failed when the wallet rejects, and sends nothing', async () => {
    const { deps, events, log, signer } = setup();
    vi.mocked(signer.signTransaction).mockRejectedValueOnce(
      Object.assign(new Error('User rejected the request.'), { code: 4001 }),
    );
    await expect(
      runCreateDare({ form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' }, deps, events),
    ).rejects.toThrow('User rejected the request.');
    expect(log.at(-1)).toBe('sign:failed');
    expect(deps.sendTransaction).not.toHaveBeenCalled();
  });

  it("passes the server's reason when sending fails", async () => {
    const { deps, events, log } = setup({
      sendTransaction: vi.fn(async () =>
        Promise.reject(new ApiError('Insufficient funds', 400, '{}', 'TRANSACTION_FAILED')),
      ),
    });
    await expect(
      runCreateDare({ form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' }, deps, events),
    ).rejects.toThrow('Insufficient funds');
    expect(log.at(-1)).toBe('send:failed');
  });

  it('retries only the record step for a stake already paid with the same wallet and amount', async () => {
    const { deps, events, log } = setup();
    const paid = {
      walletAddress: WALLET,
      stakeAmount: '0.5',
      escrowWalletAddress: ESCROW,
      signature: SIGNATURE,
      deadline: form.deadline,
      kind: 'community' as const,
    };
    await runCreateDare(
      { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0', paid },
      deps,
      events,
    );
    expect(deps.connectWallet).not.toHaveBeenCalled();
    expect(deps.sendTransaction).not.toHaveBeenCalled();
    expect(log.slice(-2)).toEqual(['record:running', 'record:done']);
    expect(vi.mocked(deps.createDare).mock.calls[0]![0].transactionSignature).toBe(SIGNATURE);
  });

  it('pays again when the stake or the deadline changed since the paid attempt', async () => {
    const paidFor = { walletAddress: WALLET, escrowWalletAddress: ESCROW, signature: SIGNATURE };
    for (const paid of [
      { ...paidFor, stakeAmount: '0.25', deadline: form.deadline, kind: 'community' as const },
      // The paid vault's deadline is fixed on chain: another one needs another vault.
      { ...paidFor, stakeAmount: '0.5', deadline: '2026-06-01T10:00:00.000Z', kind: 'community' as const },
    ]) {
      const { deps, events, log } = setup();
      await runCreateDare(
        { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0', paid },
        deps,
        events,
      );
      expect(log).toEqual(ALL_DONE);
    }
  });
});
