/**
 * The escrow program's happy paths, on LiteSVM (the real SBF runtime) through the program
 * deployed by the upgradeable loader: docs/program.md states what these prove.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { Rent } from 'litesvm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOL } from '#test/support/chain/escrow-chain';
import { EscrowV1Chain, type TestDare } from '#test/support/chain/escrow-v1-chain';
import { MIN_DEPOSIT_LAMPORTS } from './layout';
import { type LiteSvmRuntime, startLiteSvmRuntime } from './runtimes/litesvm';

let chain: EscrowV1Chain<LiteSvmRuntime>;
beforeAll(async () => {
  chain = await EscrowV1Chain.start(await startLiteSvmRuntime());
});

async function deposit(dare: TestDare, payer: KeyPairSigner, amount: bigint) {
  await chain.must([await chain.depositInstruction(dare.vault, payer, amount)]);
}

async function enter(dare: TestDare, entrant: KeyPairSigner) {
  await chain.must([await chain.enterInstruction(dare.vault, entrant)]);
}

const receiptOf = (dare: TestDare, payer: Address) => chain.receiptAddress(dare.vault, payer);
const entryOf = (dare: TestDare, entrant: Address) => chain.entryAddress(dare.vault, entrant);
const svm = () => chain.runtime.svm;

describe('escrow program: a community dare', () => {
  it('takes a stake and three payers, two entrants enter, the winner gets everything, and every account closes with its rent back', async () => {
    const platformBefore = await chain.balance(chain.platform.address);
    const feesBefore = chain.feesPaidBy(chain.platform.address);
    const creator = await chain.wallet();
    const creatorBefore = await chain.balance(creator.address);
    const dare = await chain.createDare({ creator, stake: 123_456_789n });
    expect(await chain.balance(creator.address)).toBe(creatorBefore - 123_456_789n);

    const vault = (await chain.vault(dare.vault))!;
    expect(vault).toMatchObject({
      kind: 'community',
      status: 'open',
      moderator: chain.moderator.address,
      rentPayer: chain.platform.address,
      deadline: dare.deadline,
      refundAfter: dare.refundAfter,
      total: 123_456_789n,
      receiptCount: 1,
      entryCount: 0,
    });
    expect(Array.from(vault.dareId)).toEqual(Array.from(dare.dareId));
    expect(vault.rent).toBe(svm().minimumBalanceForRentExemption(144n));
    expect(await chain.receipt(await receiptOf(dare, creator.address))).toMatchObject({
      payer: creator.address,
      rentPayer: chain.platform.address,
      amount: 123_456_789n,
    });

    const payers = [await chain.wallet(), await chain.wallet(), await chain.wallet()];
    const amounts = [MIN_DEPOSIT_LAMPORTS, 2n * SOL + 1n, 333_333_333n];
    for (const [i, payer] of payers.entries()) {
      const before = await chain.balance(payer.address);
      await deposit(dare, payer, amounts[i]!);
      expect(await chain.balance(payer.address)).toBe(before - amounts[i]!);
    }
    // A second deposit adds to the payer's receipt.
    await deposit(dare, payers[0]!, MIN_DEPOSIT_LAMPORTS);
    expect((await chain.receipt(await receiptOf(dare, payers[0]!.address)))!.amount).toBe(
      2n * MIN_DEPOSIT_LAMPORTS,
    );
    const pot = 123_456_789n + amounts.reduce((a, b) => a + b, 0n) + MIN_DEPOSIT_LAMPORTS;
    expect(await chain.vault(dare.vault)).toMatchObject({ total: pot, receiptCount: 4 });
    expect(await chain.balance(dare.vault)).toBe(vault.rent + pot);

    const [winner, loser] = [await chain.wallet(0n), await chain.wallet(1n)];
    const loserBefore = await chain.balance(loser.address);
    await enter(dare, winner);
    await enter(dare, loser);
    expect(await chain.balance(loser.address)).toBe(loserBefore); // entry rent is the platform's
    expect(await chain.entry(await entryOf(dare, winner.address))).toMatchObject({
      vault: dare.vault,
      entrant: winner.address,
      rentPayer: chain.platform.address,
    });

    const paying = [creator, ...payers].map((p) => p.address);
    const entrants = [winner.address, loser.address];
    await chain.must(await chain.settleAndCloseInstructions(dare.vault, [winner.address], paying, entrants));
    expect(await chain.balance(winner.address)).toBe(pot);
    expect(await chain.data(dare.vault)).toBeNull();
    for (const payer of paying) expect(await chain.data(await receiptOf(dare, payer))).toBeNull();
    for (const entrant of entrants) expect(await chain.data(await entryOf(dare, entrant))).toBeNull();
    // Every rent lamport came back: the platform is down by its fees only.
    const fees = chain.feesPaidBy(chain.platform.address) - feesBefore;
    expect(await chain.balance(chain.platform.address)).toBe(platformBefore - fees);
  });

  it('pays lamports a stranger sent to the vault to the winner too', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const winner = await chain.wallet(0n);
    await enter(dare, winner);
    await chain.gift(await chain.wallet(), dare.vault, 777n);
    await chain.must([
      await chain.settleInstruction(dare.vault, [winner.address]),
      ...(await chain.closeInstructions(dare.vault, [dare.creator.address], [winner.address])),
    ]);
    expect(await chain.balance(winner.address)).toBe(SOL + 777n);
    expect(await chain.data(dare.vault)).toBeNull();
  });

  it('keeps the vault, holding only its rent, until its last receipt and entry close', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const winner = await chain.wallet(0n);
    await enter(dare, winner);
    await chain.must([await chain.settleInstruction(dare.vault, [winner.address])]);
    const vault = (await chain.vault(dare.vault))!;
    expect(vault.status).toBe('settled');
    expect(await chain.balance(dare.vault)).toBe(vault.rent);
    expect(await chain.balance(winner.address)).toBe(SOL);
    const [closeReceipt, closeEntry] = await chain.closeInstructions(
      dare.vault,
      [dare.creator.address],
      [winner.address],
    );
    await chain.must([closeReceipt!]);
    expect(await chain.vault(dare.vault)).toMatchObject({ receiptCount: 0, entryCount: 1 });
    await chain.must([closeEntry!]);
    expect(await chain.data(dare.vault)).toBeNull();
  });
});

describe('escrow program: a major dare', () => {
  it('pays 70/30 exactly, the odd lamport to the first share', async () => {
    const dare = await chain.createDare({ kind: 'major', stake: 1_000_000_007n });
    const payer = await chain.wallet();
    await deposit(dare, payer, 10_000_004n);
    const pot = 1_010_000_011n; // odd, and not a multiple of 100
    const [first, second] = [await chain.wallet(0n), await chain.wallet(0n)];
    await enter(dare, first);
    await enter(dare, second);
    // A major dare needs both winners.
    const one = await chain.send([await chain.settleInstruction(dare.vault, [first.address])]);
    expect(one).toMatchObject({ ok: false, code: 3 });
    const winners = [first.address, second.address];
    await chain.must([
      await chain.settleInstruction(dare.vault, winners),
      ...(await chain.closeInstructions(dare.vault, [dare.creator.address, payer.address], winners)),
    ]);
    // 30% is 303,000,003.3: the second share is 303,000,003 and the odd lamports go to the first.
    expect(await chain.balance(second.address)).toBe(303_000_003n);
    expect(await chain.balance(first.address)).toBe(707_000_008n);
    expect((await chain.balance(first.address)) + (await chain.balance(second.address))).toBe(pot);
    expect(await chain.data(dare.vault)).toBeNull();
  });
});

describe('escrow program: refunds', () => {
  it('after cancel, refunds every payer exactly what they put in, and the vault closes', async () => {
    const platformBefore = await chain.balance(chain.platform.address);
    const feesBefore = chain.feesPaidBy(chain.platform.address);
    const dare = await chain.createDare({ stake: 50_000_001n });
    const payers = [await chain.wallet(), await chain.wallet()];
    await deposit(dare, payers[0]!, 20_000_000n);
    await deposit(dare, payers[1]!, 30_000_000n);
    await deposit(dare, payers[1]!, 40_000_000n);
    const entrant = await chain.wallet(0n);
    await enter(dare, entrant);
    const before = new Map<Address, bigint>();
    for (const p of [dare.creator, ...payers]) before.set(p.address, await chain.balance(p.address));

    await chain.must([chain.cancelInstruction(dare.vault)]);
    expect((await chain.vault(dare.vault))!.status).toBe('refunding');
    // Everything a refund needs, in one transaction anyone may send.
    const paying = [dare.creator, ...payers].map((p) => p.address);
    await chain.must(
      await chain.closeInstructions(dare.vault, paying, [entrant.address], { refund: true }),
      await chain.wallet(1n),
    );

    expect(await chain.balance(dare.creator.address)).toBe(before.get(dare.creator.address)! + 50_000_001n);
    expect(await chain.balance(payers[0]!.address)).toBe(before.get(payers[0]!.address)! + 20_000_000n);
    expect(await chain.balance(payers[1]!.address)).toBe(before.get(payers[1]!.address)! + 70_000_000n);
    expect(await chain.data(dare.vault)).toBeNull();
    const fees = chain.feesPaidBy(chain.platform.address) - feesBefore;
    expect(await chain.balance(chain.platform.address)).toBe(platformBefore - fees);
  });

  it('with no settlement by refund-after, a stranger triggers every refund; the last payer also gets stray lamports', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const payer = await chain.wallet();
    await deposit(dare, payer, 2n * SOL);
    await chain.gift(await chain.wallet(), dare.vault, 4242n);
    const stranger = await chain.wallet(1n);
    const creatorBefore = await chain.balance(dare.creator.address);
    const payerBefore = await chain.balance(payer.address);

    await chain.setTime(dare.refundAfter - 1n);
    expect(
      await chain.send([await chain.refundInstruction(dare.vault, payer.address)], stranger),
    ).toMatchObject({
      ok: false,
      code: 20,
    });
    await chain.setTime(dare.refundAfter);
    await chain.must([await chain.refundInstruction(dare.vault, dare.creator.address)], stranger);
    expect((await chain.vault(dare.vault))!.status).toBe('refunding');
    await chain.must([await chain.refundInstruction(dare.vault, payer.address)], stranger);

    expect(await chain.balance(dare.creator.address)).toBe(creatorBefore + SOL);
    expect(await chain.balance(payer.address)).toBe(payerBefore + 2n * SOL + 4242n);
    expect(await chain.data(dare.vault)).toBeNull();
    expect(await chain.balance(stranger.address)).toBe(SOL - chain.feesPaidBy(stranger.address));
    await chain.setTime(1_000_000n);
  });
});

describe('escrow program: rent', () => {
  it("computes each account's rent from the cluster's Rent sysvar, exactly, and refuses parameters it cannot compute exactly", async () => {
    const original = svm().getRent();
    try {
      // The rent before SIMD-0194: 3,480 lamports per byte-year, exempt at 2 years.
      svm().setRent(new Rent(3480n, 2.0, original.burnPercent));
      const dare = await chain.createDare();
      expect((await chain.vault(dare.vault))!.rent).toBe(svm().minimumBalanceForRentExemption(144n));
      expect((await chain.vault(dare.vault))!.rent).toBe((128n + 144n) * 3480n * 2n);
      // 1.1 years has no exact binary value: the program refuses rather than round.
      svm().setRent(new Rent(3480n, 1.1, original.burnPercent));
      await expect(chain.createDare()).rejects.toThrow('Program log: 0xda7e, 0x1c,'); // UnsupportedRent (28)
    } finally {
      svm().setRent(original);
    }
  });
});
