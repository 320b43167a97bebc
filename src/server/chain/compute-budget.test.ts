/**
 * Every transaction the server builds carries a compute-unit limit from the CU table and a price
 * from the chain's recent prioritization fees (a percentile, capped), and lands paying exactly
 * that: on the embedded chain with the escrow program deployed.
 */

import {
  type Address,
  type GetRecentPrioritizationFeesApi,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Rpc,
} from '@solana/kit';
import {
  getSetComputeUnitLimitInstructionDataDecoder,
  getSetComputeUnitPriceInstructionDataDecoder,
} from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedEscrowChain,
  SIGNATURE_FEE,
  SOL,
  walletSigns,
} from '#test/support/chain/embedded-escrow-chain';
import {
  computeUnitLimit,
  configurePriorityFees,
  createPriorityFees,
  ESCROW_COMPUTE_UNITS,
  type PriorityFees,
  percentileFee,
  priorityFeeLamports,
  walletTransactionFee,
} from './compute-budget';
import { buildDepositTransaction } from './escrow-program/app-transactions';
import { createEntryCost } from './escrow-program/entry-cost';
import { partiallySigned } from './escrow-program/wire-transactions';
import { memoInstruction } from './memo';

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';

/** The compute-budget instructions of a wire transaction: its limit and price. */
function budgetOf(base64: string): { limit: number | null; price: bigint | null; first: string } {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  // v0 messages (what the server builds) have instructions; the type also covers v1's.
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as unknown as {
    staticAccounts: string[];
    instructions: { programAddressIndex: number; data?: Uint8Array }[];
  };
  let limit: number | null = null;
  let price: bigint | null = null;
  for (const instruction of message.instructions) {
    if (message.staticAccounts[instruction.programAddressIndex] !== COMPUTE_BUDGET) continue;
    const data = instruction.data!;
    if (data[0] === 2) limit = getSetComputeUnitLimitInstructionDataDecoder().decode(data).units;
    if (data[0] === 3) price = getSetComputeUnitPriceInstructionDataDecoder().decode(data).microLamports;
  }
  const first = message.staticAccounts[message.instructions[0]!.programAddressIndex]!;
  return { limit, price, first };
}

function fakeRpc(answers: () => bigint[]) {
  const calls: (readonly Address[])[] = [];
  const rpc = {
    getRecentPrioritizationFees: (accounts: readonly Address[]) => ({
      send: async () => {
        calls.push(accounts);
        return answers().map((fee, slot) => ({ slot: BigInt(slot), prioritizationFee: fee }));
      },
    }),
  } as unknown as Rpc<GetRecentPrioritizationFeesApi>;
  return { rpc, calls };
}

describe('the compute-unit price', () => {
  it('takes the percentile of the recent slots and never more than the cap', async () => {
    expect(percentileFee([], 75)).toBe(0n);
    expect(percentileFee([10n, 40n, 20n, 30n], 75)).toBe(30n);
    expect(percentileFee([10n, 40n, 20n, 30n], 100)).toBe(40n);
    const { rpc } = fakeRpc(() => [0n, 500n, 9_000n, 2_000_000n]);
    const fees = createPriorityFees(rpc, { percentile: 50, maxMicroLamports: 1_000_000n, cacheMs: 0 });
    expect(await fees.microLamportsFor([])).toBe(500n);
    const capped = createPriorityFees(rpc, { percentile: 100, maxMicroLamports: 1_000_000n, cacheMs: 0 });
    expect(await capped.microLamportsFor([])).toBe(1_000_000n);
  });

  it('asks once per account set while an answer is fresh, and again after', async () => {
    let now = 0;
    const { rpc, calls } = fakeRpc(() => [7n]);
    const fees = createPriorityFees(
      rpc,
      { percentile: 75, maxMicroLamports: 100n, cacheMs: 1_500 },
      () => now,
    );
    const a = 'A1111111111111111111111111111111111111111111' as Address;
    const b = 'B1111111111111111111111111111111111111111111' as Address;
    await Promise.all([fees.microLamportsFor([a, b]), fees.microLamportsFor([b, a])]);
    expect(calls).toHaveLength(1);
    now = 1_499;
    await fees.microLamportsFor([a, b]);
    expect(calls).toHaveLength(1);
    now = 1_500;
    expect(await fees.microLamportsFor([a, b])).toBe(7n);
    expect(calls).toHaveLength(2);
  });

  it('keeps the last price when the node cannot answer, and asks nothing with a cap of 0', async () => {
    let fail = false;
    const { rpc, calls } = fakeRpc(() => {
      if (fail) throw new Error('429');
      return [42n];
    });
    const fees = createPriorityFees(rpc, { percentile: 75, maxMicroLamports: 100n, cacheMs: 0 });
    expect(await fees.microLamportsFor([])).toBe(42n);
    fail = true;
    expect(await fees.microLamportsFor([])).toBe(42n);
    const none = createPriorityFees(rpc, { percentile: 75, maxMicroLamports: 0n, cacheMs: 0 });
    const before = calls.length;
    expect(await none.microLamportsFor([])).toBe(0n);
    expect(calls).toHaveLength(before);
  });

  it('sizes the limit from the CU table with a margin', () => {
    const deposit = {
      programAddress: 'Escrow1111111111111111111111111111111111111' as Address,
      data: new Uint8Array([1]),
    };
    const limit = computeUnitLimit([deposit]);
    expect(limit).toBeGreaterThan(ESCROW_COMPUTE_UNITS[1]! * 1.2);
    expect(limit).toBeLessThan(10_000);
    expect(priorityFeeLamports(1_000_000n, limit)).toBe(BigInt(limit));
    expect(priorityFeeLamports(1n, 1)).toBe(1n);
  });
});

describe('transactions built on a chain with recent priority fees', () => {
  let t: EmbeddedEscrowChain;
  let fees: PriorityFees;
  const paid = 3_000n;
  beforeAll(async () => {
    t = await EmbeddedEscrowChain.open();
    fees = configurePriorityFees(t.rpc, { percentile: 100, maxMicroLamports: 2_000n, cacheMs: 0 });
    // Someone else's transaction paid 3,000 micro-lamports per unit: the chain remembers it.
    const other = await t.wallet();
    const { value: lifetime } = await t.rpc.getLatestBlockhash().send();
    const pricey = { microLamportsFor: async () => paid } as unknown as PriorityFees;
    const transfer = await partiallySigned({
      feePayer: other,
      lifetime,
      fees: pricey,
      instructions: [
        getTransferSolInstruction({ source: other, destination: t.platform.address, amount: 1n }),
      ],
    });
    await t.sendWire(transfer.base64);
  });
  afterAll(() => t.close());

  it('a dare and a contribution carry the limit and the capped price first, and land paying it', async () => {
    const creator = await t.wallet();
    const created = await t.buildCreateVault(creator.address, SOL / 10n);
    const createBudget = budgetOf(created.base64);
    expect(createBudget.first).toBe(COMPUTE_BUDGET);
    expect(createBudget.price).toBe(2_000n); // the chain's 3,000, capped
    expect(createBudget.limit).toBeGreaterThan(ESCROW_COMPUTE_UNITS[0]!);
    const createSignature = await t.sendWire(await walletSigns(created.base64, creator));
    const createCost = await t.costOf(createSignature);
    expect(createCost.computeUnits).toBeLessThan(BigInt(createBudget.limit!));
    // Two signers (the creator and the platform as rent payer).
    expect(createCost.fee).toBe(2n * SIGNATURE_FEE + priorityFeeLamports(2_000n, createBudget.limit!));

    const backer = await t.wallet();
    const deposit = await buildDepositTransaction(t.rpc, {
      programId: t.programId,
      vault: created.vault,
      payer: backer.address,
      amount: SOL / 100n,
    });
    const depositBudget = budgetOf(deposit.base64);
    expect(depositBudget.price).toBe(2_000n);
    const before = await t.balance(backer.address);
    const depositSignature = await t.sendWire(await walletSigns(deposit.base64, backer));
    const depositFee = SIGNATURE_FEE + priorityFeeLamports(2_000n, depositBudget.limit!);
    expect((await t.costOf(depositSignature)).fee).toBe(depositFee);
    expect(fees.maxPriorityFeeLamports(depositBudget.limit!)).toBeGreaterThanOrEqual(
      depositFee - SIGNATURE_FEE,
    );
    expect(before - (await t.balance(backer.address))).toBeGreaterThanOrEqual(SOL / 100n + depositFee);
  });

  it('counts the priority fee in the fee shown before signing and in the entry cost', async () => {
    const units = computeUnitLimit([
      { programAddress: t.programId, data: Uint8Array.of(0) },
      memoInstruction('x'.repeat(44)),
    ]);
    expect(await walletTransactionFee(t.rpc, 0)).toBe(SIGNATURE_FEE + priorityFeeLamports(2_000n, units));
    const cost = await createEntryCost(t.rpc)();
    expect(cost.fee).toBeGreaterThan(SIGNATURE_FEE);
    expect(cost.total).toBe(cost.rent + cost.fee);
  });
});
