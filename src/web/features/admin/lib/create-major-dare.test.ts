import { describe, expect, it, vi } from 'vitest';
import type { Dare } from '#contract/dares';
import { DARE_MESSAGES } from '#contract/dares';
import { MAJOR_DARE_FORM_DEFAULTS, MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { type CreateMajorDareDeps, runCreateMajorDare, validateMajorDareForm } from './create-major-dare';

const WALLET = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const ESCROW = 'EscrowWa11et1111111111111111111111111111111';
const SIGNATURE = '5h3kT9xQ'.padEnd(88, 'A');
const NOW = new Date(2026, 10, 22, 12, 0);

const filled = {
  ...MAJOR_DARE_FORM_DEFAULTS,
  title: 'Weekly: cold plunge',
  description: 'Three minutes in ice water',
  category: 'Fitness',
  deadline: '2026-11-29T12:00',
};

describe('validateMajorDareForm', () => {
  it('starts from the spec defaults: 0.1 SOL prize, 100 participants, medium', () => {
    expect(MAJOR_DARE_FORM_DEFAULTS).toMatchObject({
      prizeAmount: '0.1',
      maxParticipants: 100,
      difficulty: 'medium',
    });
  });

  it('gives the prize in canonical SOL and the deadline as an ISO instant', () => {
    const result = validateMajorDareForm({ ...filled, prizeAmount: '0.10' }, NOW);
    expect(result).toEqual({
      ok: true,
      value: { ...filled, prizeAmount: '0.1', deadline: new Date(2026, 10, 29, 12, 0).toISOString() },
    });
  });

  it("names each bad field with the contract's message", () => {
    const result = validateMajorDareForm(
      {
        ...filled,
        title: ' ',
        category: '',
        prizeAmount: '0.001',
        maxParticipants: Number.NaN,
        deadline: '',
      },
      NOW,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.title).toBe(DARE_MESSAGES.titleRequired);
    expect(result.errors.category).toBe(MAJOR_DARE_MESSAGES.categoryRequired);
    expect(result.errors.prizeAmount).toBeTruthy();
    expect(result.errors.maxParticipants).toBe(DARE_MESSAGES.maxParticipants);
    expect(result.errors.deadline).toBe(DARE_MESSAGES.deadlineRequired);
  });

  it('refuses a past deadline before any SOL moves', () => {
    const result = validateMajorDareForm({ ...filled, deadline: '2026-11-21T12:00' }, NOW);
    expect(result).toEqual({ ok: false, errors: { deadline: DARE_MESSAGES.deadlinePast } });
  });
});

function deps(): CreateMajorDareDeps {
  const signer: PaymentSigner = {
    address: WALLET,
    walletName: 'E2E Test Wallet',
    signTransaction: vi.fn(async (tx: Uint8Array) => tx),
  };
  return {
    connectWallet: vi.fn(async () => signer),
    checkBalance: vi.fn(async () => 1_000_000_000n),
    createEscrowWallet: vi.fn(async () => ({ publicKey: ESCROW })),
    createTransaction: vi.fn(async () => ({
      transaction: Buffer.from([1]).toString('base64'),
      reference: 'ref',
      lamports: '100000000',
      lastValidBlockHeight: '1',
    })),
    sendTransaction: vi.fn(async () => SIGNATURE),
    createMajorDare: vi.fn(async () => ({ id: 7 }) as Dare),
  };
}

describe('runCreateMajorDare', () => {
  const form = { ...filled, deadline: '2026-11-29T11:00:00.000Z' };
  const events = { onStep: () => {}, onPaid: () => {} };

  it("pays the prize from the admin's wallet into a fresh escrow, then records it with the signature", async () => {
    const calls = deps();
    const result = await runCreateMajorDare(
      { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' },
      calls,
      events,
    );
    expect(result).toEqual({ dare: { id: 7 }, signature: SIGNATURE });
    expect(calls.createTransaction).toHaveBeenCalledWith({
      fromWallet: WALLET,
      toWallet: ESCROW,
      amount: '0.1',
      deadline: form.deadline,
      kind: 'major',
      title: form.title,
      description: form.description,
    });
    expect(calls.createMajorDare).toHaveBeenCalledWith({
      ...form,
      userWallet: WALLET,
      transactionSignature: SIGNATURE,
      escrowWalletAddress: ESCROW,
    });
  });

  it('repeats only the record call for a prize already paid', async () => {
    const calls = deps();
    const paid = {
      walletAddress: WALLET,
      stakeAmount: '0.1',
      escrowWalletAddress: ESCROW,
      signature: SIGNATURE,
      deadline: form.deadline,
      kind: 'major' as const,
    };
    await runCreateMajorDare(
      { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0', paid },
      calls,
      events,
    );
    expect(calls.sendTransaction).not.toHaveBeenCalled();
    expect(calls.createMajorDare).toHaveBeenCalledTimes(1);
  });

  it('stops before the escrow when the wallet cannot pay the prize', async () => {
    const calls = { ...deps(), checkBalance: vi.fn(async () => 50_000_000n) };
    await expect(
      runCreateMajorDare(
        { form, walletAddress: WALLET, cluster: 'localnet', vaultRentSol: '0' },
        calls,
        events,
      ),
    ).rejects.toThrow(/Insufficient balance/);
    expect(calls.createEscrowWallet).not.toHaveBeenCalled();
    expect(calls.createMajorDare).not.toHaveBeenCalled();
  });
});
