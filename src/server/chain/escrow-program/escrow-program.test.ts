/**
 * The escrow program's happy paths, on LiteSVM (the real SBF runtime) through the program
 * deployed by the upgradeable loader: docs/program.md states what these prove.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { Rent } from 'litesvm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EscrowTestChain, SOL, type TestDare } from '#test/support/chain/escrow-v1-chain';
import {
  getCloseInstructions,
  getDepositInstruction,
  getEnterInstruction,
  getSettleAndCloseInstructions,
  getSettleInstruction,
} from '#test/support/chain/v1-vaults';
import {
  getCancelInstruction,
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
} from './instructions';
import { MIN_DEPOSIT_LAMPORTS } from './layout';
import { findEntryAddress, findReceiptAddress } from './pda';

let chain: EscrowTestChain;
beforeAll(async () => {
  chain = await EscrowTestChain.start();
});

async function deposit(dare: TestDare, payer: KeyPairSigner, amount: bigint) {
  await chain.must([
    await getDepositInstruction({
      programId: chain.programId,
      vault: dare.vault,
      payer,
      rentPayer: chain.platform,
      amount,
    }),
  ]);
}

async function enter(dare: TestDare, entrant: KeyPairSigner) {
  await chain.must([
    await getEnterInstruction({
      programId: chain.programId,
      vault: dare.vault,
      entrant,
      rentPayer: chain.platform,
    }),
  ]);
}

/** close_receipt / close_entry for every payer and entrant: what follows a settle. */
async function closeAll(dare: TestDare, payers: Address[], entrants: Address[]) {
  const common = { programId: chain.programId, vault: dare.vault, vaultRentPayer: chain.platform.address };
  return [
    ...(await Promise.all(
      payers.map((payer) =>
        getCloseReceiptInstruction({ ...common, payer, receiptRentPayer: chain.platform.address }),
      ),
    )),
    ...(await Promise.all(
      entrants.map((entrant) =>
        getCloseEntryInstruction({ ...common, entrant, entryRentPayer: chain.platform.address }),
      ),
    )),
  ];
}

async function refund(dare: TestDare, payer: Address) {
  return getRefundInstruction({
    programId: chain.programId,
    vault: dare.vault,
    payer,
    receiptRentPayer: chain.platform.address,
    vaultRentPayer: chain.platform.address,
  });
}

async function receiptOf(dare: TestDare, payer: Address) {
  return (await findReceiptAddress(chain.programId, dare.vault, payer)).address;
}

async function entryOf(dare: TestDare, entrant: Address) {
  return (await findEntryAddress(chain.programId, dare.vault, entrant)).address;
}

describe('escrow program: a community dare', () => {
  it('takes a stake and three payers, two entrants enter, the winner gets everything, and every account closes with its rent back', async () => {
    const platformBefore = chain.balance(chain.platform.address);
    const feesBefore = chain.feesPaidBy(chain.platform.address);
    const creator = await chain.wallet();
    const creatorBefore = chain.balance(creator.address);
    const dare = await chain.createDare({ creator, stake: 123_456_789n });
    expect(chain.balance(creator.address)).toBe(creatorBefore - 123_456_789n);

    const vault = chain.vault(dare.vault)!;
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
    expect(vault.rent).toBe(chain.svm.minimumBalanceForRentExemption(144n));
    expect(chain.receipt(await receiptOf(dare, creator.address))).toMatchObject({
      payer: creator.address,
      rentPayer: chain.platform.address,
      amount: 123_456_789n,
    });

    const payers = [await chain.wallet(), await chain.wallet(), await chain.wallet()];
    const amounts = [MIN_DEPOSIT_LAMPORTS, 2n * SOL + 1n, 333_333_333n];
    for (const [i, payer] of payers.entries()) {
      const before = chain.balance(payer.address);
      await deposit(dare, payer, amounts[i]!);
      expect(chain.balance(payer.address)).toBe(before - amounts[i]!);
    }
    // A second deposit adds to the payer's receipt.
    await deposit(dare, payers[0]!, MIN_DEPOSIT_LAMPORTS);
    expect(chain.receipt(await receiptOf(dare, payers[0]!.address))!.amount).toBe(2n * MIN_DEPOSIT_LAMPORTS);
    const pot = 123_456_789n + amounts.reduce((a, b) => a + b, 0n) + MIN_DEPOSIT_LAMPORTS;
    expect(chain.vault(dare.vault)).toMatchObject({ total: pot, receiptCount: 4 });
    expect(chain.balance(dare.vault)).toBe(vault.rent + pot);

    const [winner, loser] = [await chain.wallet(0n), await chain.wallet(1n)];
    const loserBefore = chain.balance(loser.address);
    await enter(dare, winner);
    await enter(dare, loser);
    expect(chain.balance(loser.address)).toBe(loserBefore); // entry rent is the platform's
    expect(chain.entry(await entryOf(dare, winner.address))).toMatchObject({
      vault: dare.vault,
      entrant: winner.address,
      rentPayer: chain.platform.address,
    });

    const platform = chain.platform.address;
    await chain.must(
      await getSettleAndCloseInstructions({
        programId: chain.programId,
        vault: dare.vault,
        moderator: chain.moderator,
        winners: [winner.address],
        vaultRentPayer: platform,
        receipts: [creator, ...payers].map((p) => ({ payer: p.address, rentPayer: platform })),
        entries: [winner, loser].map((e) => ({ entrant: e.address, rentPayer: platform })),
      }),
    );
    expect(chain.balance(winner.address)).toBe(pot);
    expect(chain.data(dare.vault)).toBeNull();
    for (const payer of [creator, ...payers])
      expect(chain.data(await receiptOf(dare, payer.address))).toBeNull();
    for (const entrant of [winner, loser])
      expect(chain.data(await entryOf(dare, entrant.address))).toBeNull();
    // Every rent lamport came back: the platform is down by its fees only.
    const fees = chain.feesPaidBy(chain.platform.address) - feesBefore;
    expect(chain.balance(chain.platform.address)).toBe(platformBefore - fees);
  });

  it('pays lamports a stranger sent to the vault to the winner too', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const winner = await chain.wallet(0n);
    await enter(dare, winner);
    await chain.gift(await chain.wallet(), dare.vault, 777n);
    await chain.must([
      await getSettleInstruction({
        programId: chain.programId,
        vault: dare.vault,
        moderator: chain.moderator,
        winners: [winner.address],
      }),
      ...(await closeAll(dare, [dare.creator.address], [winner.address])),
    ]);
    expect(chain.balance(winner.address)).toBe(SOL + 777n);
    expect(chain.data(dare.vault)).toBeNull();
  });

  it('keeps the vault, holding only its rent, until its last receipt and entry close', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const winner = await chain.wallet(0n);
    await enter(dare, winner);
    await chain.must([
      await getSettleInstruction({
        programId: chain.programId,
        vault: dare.vault,
        moderator: chain.moderator,
        winners: [winner.address],
      }),
    ]);
    const vault = chain.vault(dare.vault)!;
    expect(vault.status).toBe('settled');
    expect(chain.balance(dare.vault)).toBe(vault.rent);
    expect(chain.balance(winner.address)).toBe(SOL);
    const [closeReceipt, closeEntry] = await closeAll(dare, [dare.creator.address], [winner.address]);
    await chain.must([closeReceipt!]);
    expect(chain.vault(dare.vault)).toMatchObject({ receiptCount: 0, entryCount: 1 });
    await chain.must([closeEntry!]);
    expect(chain.data(dare.vault)).toBeNull();
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
    const one = await chain.send([
      await getSettleInstruction({
        programId: chain.programId,
        vault: dare.vault,
        moderator: chain.moderator,
        winners: [first.address],
      }),
    ]);
    expect(one).toMatchObject({ ok: false, code: 3 });
    await chain.must([
      await getSettleInstruction({
        programId: chain.programId,
        vault: dare.vault,
        moderator: chain.moderator,
        winners: [first.address, second.address],
      }),
      ...(await closeAll(dare, [dare.creator.address, payer.address], [first.address, second.address])),
    ]);
    // 30% is 303,000,003.3: the second share is 303,000,003 and the odd lamports go to the first.
    expect(chain.balance(second.address)).toBe(303_000_003n);
    expect(chain.balance(first.address)).toBe(707_000_008n);
    expect(chain.balance(first.address) + chain.balance(second.address)).toBe(pot);
    expect(chain.data(dare.vault)).toBeNull();
  });
});

describe('escrow program: refunds', () => {
  it('after cancel, refunds every payer exactly what they put in, and the vault closes', async () => {
    const platformBefore = chain.balance(chain.platform.address);
    const feesBefore = chain.feesPaidBy(chain.platform.address);
    const dare = await chain.createDare({ stake: 50_000_001n });
    const payers = [await chain.wallet(), await chain.wallet()];
    await deposit(dare, payers[0]!, 20_000_000n);
    await deposit(dare, payers[1]!, 30_000_000n);
    await deposit(dare, payers[1]!, 40_000_000n);
    const entrant = await chain.wallet(0n);
    await enter(dare, entrant);
    const before = new Map([dare.creator, ...payers].map((p) => [p.address, chain.balance(p.address)]));

    await chain.must([
      getCancelInstruction({ programId: chain.programId, vault: dare.vault, moderator: chain.moderator }),
    ]);
    expect(chain.vault(dare.vault)!.status).toBe('refunding');
    // Everything a refund needs, in one transaction anyone may send.
    const platform = chain.platform.address;
    await chain.must(
      await getCloseInstructions({
        programId: chain.programId,
        vault: dare.vault,
        vaultRentPayer: platform,
        receipts: [dare.creator, ...payers].map((p) => ({ payer: p.address, rentPayer: platform })),
        entries: [{ entrant: entrant.address, rentPayer: platform }],
        refund: true,
      }),
      await chain.wallet(1n),
    );

    expect(chain.balance(dare.creator.address)).toBe(before.get(dare.creator.address)! + 50_000_001n);
    expect(chain.balance(payers[0]!.address)).toBe(before.get(payers[0]!.address)! + 20_000_000n);
    expect(chain.balance(payers[1]!.address)).toBe(before.get(payers[1]!.address)! + 70_000_000n);
    expect(chain.data(dare.vault)).toBeNull();
    const fees = chain.feesPaidBy(chain.platform.address) - feesBefore;
    expect(chain.balance(chain.platform.address)).toBe(platformBefore - fees);
  });

  it('with no settlement by refund-after, a stranger triggers every refund; the last payer also gets stray lamports', async () => {
    const dare = await chain.createDare({ stake: SOL });
    const payer = await chain.wallet();
    await deposit(dare, payer, 2n * SOL);
    await chain.gift(await chain.wallet(), dare.vault, 4242n);
    const stranger = await chain.wallet(1n);
    const creatorBefore = chain.balance(dare.creator.address);
    const payerBefore = chain.balance(payer.address);

    chain.setTime(dare.refundAfter - 1n);
    expect(await chain.send([await refund(dare, payer.address)], stranger)).toMatchObject({
      ok: false,
      code: 20,
    });
    chain.setTime(dare.refundAfter);
    await chain.must([await refund(dare, dare.creator.address)], stranger);
    expect(chain.vault(dare.vault)!.status).toBe('refunding');
    await chain.must([await refund(dare, payer.address)], stranger);

    expect(chain.balance(dare.creator.address)).toBe(creatorBefore + SOL);
    expect(chain.balance(payer.address)).toBe(payerBefore + 2n * SOL + 4242n);
    expect(chain.data(dare.vault)).toBeNull();
    expect(chain.balance(stranger.address)).toBe(SOL - chain.feesPaidBy(stranger.address));
    chain.setTime(1_000_000n);
  });
});

describe('escrow program: rent', () => {
  it("computes each account's rent from the cluster's Rent sysvar, exactly, and refuses parameters it cannot compute exactly", async () => {
    const original = chain.svm.getRent();
    try {
      // The rent before SIMD-0194: 3,480 lamports per byte-year, exempt at 2 years.
      chain.svm.setRent(new Rent(3480n, 2.0, original.burnPercent));
      const dare = await chain.createDare();
      expect(chain.vault(dare.vault)!.rent).toBe(chain.svm.minimumBalanceForRentExemption(144n));
      expect(chain.vault(dare.vault)!.rent).toBe((128n + 144n) * 3480n * 2n);
      // 1.1 years has no exact binary value: the program refuses rather than round.
      chain.svm.setRent(new Rent(3480n, 1.1, original.burnPercent));
      await expect(chain.createDare()).rejects.toThrow('Program log: 0xda7e, 0x1c,'); // UnsupportedRent (28)
    } finally {
      chain.svm.setRent(original);
    }
  });
});
