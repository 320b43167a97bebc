/**
 * Property test of escrow v2: random sequences of deposits, entries, proposals (by random sets of
 * judges and strangers), vetoes, executes, cancels, refunds, closes, gifts and clock moves against
 * the deployed program, checked step by step against a model. Seeded: a failure names the seed
 * that reproduces it (ESCROW_PROPERTY_SEED=n runs that one).
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEntryAddress, findReceiptAddress } from '#server/chain/escrow-program/pda';
import { startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { DAY, EscrowV2Chain, HOUR, START_TIME } from '#test/support/chain/escrow-v2-chain';
import {
  getCancelV2Instruction,
  getCloseEntryV2Instruction,
  getCloseReceiptV2Instruction,
  getDepositV2Instruction,
  getEnterV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getRefundV2Instruction,
  getVetoInstruction,
} from './instructions';
import { type DareKind, MIN_DEPOSIT_LAMPORTS } from './layout';

/** mulberry32: small, seedable, good enough to pick actions. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}

let chain: EscrowV2Chain;
const outcomes: string[] = [];
const actionsSeen = new Set<string>();
beforeAll(async () => {
  chain = await EscrowV2Chain.start(await startLiteSvmRuntime());
});

type Status = 'open' | 'proposed' | 'settled' | 'refunding' | 'closed';

async function run(seed: number, steps: number) {
  const random = prng(seed);
  await chain.setTime(START_TIME);
  const kind: DareKind = random.chance(0.5) ? 'major' : 'community';
  const threshold = 1 + random.int(3);
  const payoutWindow = HOUR + BigInt(random.int(Number(2n * DAY)));
  const payers = await Promise.all([0, 1, 2, 3].map(() => chain.wallet(50n)));
  const entrants = await Promise.all([0, 1, 2].map(() => chain.wallet(1n)));
  const stranger = await chain.wallet(50n);
  const actors: KeyPairSigner[] = [
    ...payers,
    ...entrants,
    stranger,
    chain.platform,
    chain.guardian,
    ...chain.judges,
  ];
  const start = new Map(actors.map((a) => [a.address, 0n]));
  for (const a of actors) start.set(a.address, await chain.balance(a.address));
  const feesAtStart = new Map(actors.map((a) => [a.address, chain.feesPaidBy(a.address)]));

  const stake = MIN_DEPOSIT_LAMPORTS + BigInt(random.int(1_000_000_000));
  const deadline = START_TIME + DAY;
  const dare = await chain.createDare({
    kind,
    stake,
    creator: payers[0]!,
    threshold,
    payoutWindow,
    deadline,
    refundAfter: deadline + 3n * DAY,
  });
  const programId = chain.programId;
  const vault = dare.vault;
  const receiptAddress = new Map<Address, Address>();
  const entryAddress = new Map<Address, Address>();
  for (const p of payers)
    receiptAddress.set(p.address, (await findReceiptAddress(programId, vault, p.address)).address);
  for (const e of entrants)
    entryAddress.set(e.address, (await findEntryAddress(programId, vault, e.address)).address);

  // The model.
  let status: Status = 'open';
  let proposal: { winners: Address[]; executesAt: bigint } | null = null;
  const receipts = new Map<Address, bigint>([[payers[0]!.address, stake]]);
  const entered = new Set<Address>();
  const deposited = new Map<Address, bigint>([[payers[0]!.address, stake]]);
  const refunded = new Map<Address, bigint>();
  let stray = 0n;
  let strayToRentPayer = 0n;
  let paidToWinners = 0n;
  const trace: string[] = [];
  const now = () => chain.now();

  const check = async (label: string) => {
    const context = `seed ${seed}, after ${trace.join(' → ')} (${label})`;
    const onChain = await chain.vault(vault);
    if (status === 'closed') {
      expect(await chain.data(vault), context).toBeNull();
      return;
    }
    expect(onChain, context).not.toBeNull();
    expect(onChain!.status, context).toBe(status);
    expect(onChain!.proposal, context).toEqual(
      status === 'proposed' || status === 'settled' ? proposal : null,
    );
    for (const p of payers) {
      const receipt = await chain.receipt(receiptAddress.get(p.address)!);
      expect(receipt?.amount ?? null, context).toBe(receipts.get(p.address) ?? null);
    }
    for (const e of entrants)
      expect((await chain.entry(entryAddress.get(e.address)!)) !== null, context).toBe(
        entered.has(e.address),
      );
    const sum = [...receipts.values()].reduce((a, b) => a + b, 0n);
    expect(onChain!.receiptCount, context).toBe(receipts.size);
    expect(onChain!.entryCount, context).toBe(entered.size);
    if (status === 'settled') expect(await chain.balance(vault), context).toBe(onChain!.rent + stray);
    else {
      expect(onChain!.total, context).toBe(sum);
      expect(await chain.balance(vault), context).toBe(onChain!.rent + sum + stray);
    }
  };

  const attempt = async (
    label: string,
    instruction: Promise<Parameters<typeof chain.send>[0][number]>,
    expected: boolean,
    feePayer?: KeyPairSigner,
  ) => {
    trace.push(label);
    const result = await chain.send([await instruction], feePayer);
    expect(result.ok, `seed ${seed}: ${trace.join(' → ')}: ${result.ok ? 'succeeded' : result.error}`).toBe(
      expected,
    );
    if (result.ok) actionsSeen.add(label.split(' ')[0]!);
    return result.ok;
  };

  const maybeClosed = () => {
    if (receipts.size === 0 && entered.size === 0) {
      // Gifts that arrived after the payout or the last refund go to the vault's rent payer.
      strayToRentPayer += stray;
      stray = 0n;
      status = 'closed';
    }
  };

  const refundOne = async (payer: Address) => {
    const amount = receipts.get(payer);
    const due = status === 'refunding' || (status === 'open' && (await now()) >= dare.refundAfter);
    const before = await chain.balance(payer);
    const ok = await attempt(
      `refund ${payers.findIndex((p) => p.address === payer)}`,
      getRefundV2Instruction({
        programId,
        vault,
        payer,
        receiptRentPayer: chain.platform.address,
        vaultRentPayer: chain.platform.address,
      }),
      amount !== undefined && due,
      stranger,
    );
    if (!ok) return;
    status = 'refunding';
    receipts.delete(payer);
    let paid = amount!;
    if (receipts.size === 0) {
      paid += stray;
      stray = 0n;
    }
    refunded.set(payer, (refunded.get(payer) ?? 0n) + paid);
    expect(await chain.balance(payer)).toBe(before + paid);
    if (receipts.size === 0 && entered.size === 0) status = 'closed';
  };

  const closeEntry = async (entrant: Address) => {
    const ok = await attempt(
      `close-entry ${entrants.findIndex((e) => e.address === entrant)}`,
      getCloseEntryV2Instruction({
        programId,
        vault,
        entrant,
        entryRentPayer: entrant,
        vaultRentPayer: chain.platform.address,
      }),
      entered.has(entrant) && (status === 'settled' || status === 'refunding'),
    );
    if (!ok) return;
    entered.delete(entrant);
    maybeClosed();
  };

  const closeReceipt = async (payer: Address) => {
    const ok = await attempt(
      `close-receipt ${payers.findIndex((p) => p.address === payer)}`,
      getCloseReceiptV2Instruction({
        programId,
        vault,
        payer,
        receiptRentPayer: chain.platform.address,
        vaultRentPayer: chain.platform.address,
      }),
      receipts.has(payer) && status === 'settled',
    );
    if (!ok) return;
    receipts.delete(payer);
    maybeClosed();
  };

  const executeNow = async (feePayer: KeyPairSigner) => {
    const winners = proposal?.winners ?? [entrants[0]!.address];
    const before: bigint[] = [];
    for (const w of winners) before.push(await chain.balance(w));
    const pot = (await chain.balance(vault)) - ((await chain.vault(vault))?.rent ?? 0n);
    const ok = await attempt(
      'execute',
      Promise.resolve(getExecuteInstruction({ programId, vault, winners })),
      status === 'proposed' && (await now()) >= proposal!.executesAt,
      feePayer,
    );
    if (!ok) return;
    status = 'settled';
    stray = 0n;
    paidToWinners = pot;
    const same = winners[0] === winners[1];
    const gained = same
      ? (await chain.balance(winners[0]!)) - before[0]!
      : (await chain.balance(winners[0]!)) -
        before[0]! +
        (winners[1] ? (await chain.balance(winners[1])) - before[1]! : 0n);
    expect(gained).toBe(pot);
    if (kind === 'major' && !same)
      expect((await chain.balance(winners[1]!)) - before[1]!).toBe(
        (pot / 100n) * 30n + ((pot % 100n) * 30n) / 100n,
      );
  };

  await check('created');
  const isClosed = () => (status as Status) === 'closed'; // status changes inside awaited helpers
  for (let step = 0; step < steps && !isClosed(); step++) {
    const action = random.int(12);
    if (action <= 1) {
      const payer = random.pick(payers);
      const amount = random.chance(0.1)
        ? MIN_DEPOSIT_LAMPORTS - 1n
        : MIN_DEPOSIT_LAMPORTS + BigInt(random.int(2_000_000_000));
      const ok = await attempt(
        `deposit ${payers.indexOf(payer)} ${amount}`,
        getDepositV2Instruction({ programId, vault, payer, rentPayer: chain.platform, amount }),
        status === 'open' && (await now()) < dare.deadline && amount >= MIN_DEPOSIT_LAMPORTS,
      );
      if (ok) {
        receipts.set(payer.address, (receipts.get(payer.address) ?? 0n) + amount);
        deposited.set(payer.address, (deposited.get(payer.address) ?? 0n) + amount);
      }
    } else if (action === 2) {
      const entrant = random.pick(entrants);
      const ok = await attempt(
        `enter ${entrants.indexOf(entrant)}`,
        getEnterV2Instruction({ programId, vault, entrant, proofHash: new Uint8Array(32).fill(step) }),
        status === 'open' && (await now()) < dare.deadline && !entered.has(entrant.address),
        entrant,
      );
      if (ok) entered.add(entrant.address);
    } else if (action === 3 || action === 4) {
      const winners = (
        kind === 'major' ? [random.pick(entrants), random.pick(entrants)] : [random.pick(entrants)]
      ).map((w) => w.address);
      // Some judges (maybe the same twice), and sometimes a stranger among them.
      const signers: KeyPairSigner[] = Array.from({ length: 1 + random.int(3) }, () =>
        random.pick(chain.judges),
      );
      const withStranger = random.chance(0.15);
      if (withStranger) signers.push(stranger);
      const distinct = new Set(signers.filter((s) => s !== stranger).map((s) => s.address)).size;
      const t = await now();
      const ok = await attempt(
        `propose ${winners.map((w) => entrants.findIndex((e) => e.address === w)).join('+')} by ${distinct}${withStranger ? '+stranger' : ''}`,
        getProposeInstruction({ programId, vault, winners, judges: signers }),
        status === 'open' &&
          !withStranger &&
          distinct >= threshold &&
          winners.every((w) => entered.has(w)) &&
          t + payoutWindow <= dare.refundAfter,
      );
      if (ok) {
        status = 'proposed';
        proposal = { winners, executesAt: t + payoutWindow };
      }
    } else if (action === 5) {
      const ok = await attempt(
        'veto',
        Promise.resolve(getVetoInstruction({ programId, vault, guardian: chain.guardian })),
        status === 'proposed' && (await now()) < proposal!.executesAt,
        chain.guardian,
      );
      if (ok) {
        status = 'open';
        proposal = null;
      }
    } else if (action === 6) {
      await executeNow(random.pick([stranger, chain.guardian, chain.platform]));
    } else if (action === 7 && random.chance(0.3)) {
      const ok = await attempt(
        'cancel',
        Promise.resolve(getCancelV2Instruction({ programId, vault, canceller: chain.canceller })),
        status === 'open',
      );
      if (ok) status = 'refunding';
    } else if (action === 8) {
      await refundOne(random.pick(payers).address);
    } else if (action === 9 || action === 7) {
      if (random.chance(0.5)) await closeEntry(random.pick(entrants).address);
      else await closeReceipt(random.pick(payers).address);
    } else if (action === 10 && status === 'proposed' && random.chance(0.5)) {
      // The window's edge, where veto ends and execute begins.
      const at = proposal!.executesAt - BigInt(random.int(2));
      if (at > (await now())) {
        trace.push(`to executesAt${at < proposal!.executesAt ? '-1' : ''}`);
        await chain.setTime(at);
      }
      if (random.chance(0.5)) await executeNow(stranger);
      else if (
        await attempt(
          'veto',
          Promise.resolve(getVetoInstruction({ programId, vault, guardian: chain.guardian })),
          (await now()) < proposal!.executesAt,
          chain.guardian,
        )
      ) {
        status = 'open';
        proposal = null;
      }
    } else if (action === 10) {
      const seconds = BigInt(random.int(Number(DAY)));
      trace.push(`+${seconds}s`);
      await chain.setTime((await now()) + seconds);
    } else if (!isClosed()) {
      const gift = BigInt(1 + random.int(1_000_000));
      trace.push(`gift ${gift}`);
      await chain.gift(stranger, vault, gift);
      stray += gift;
    }
    await check(`step ${step}`);
  }

  // Finish the dare whatever state it is in: nothing may be left behind.
  if (status === 'proposed') {
    if ((await now()) < proposal!.executesAt) await chain.setTime(proposal!.executesAt);
    await executeNow(stranger);
  }
  if (status === 'open') {
    await attempt(
      'cancel',
      Promise.resolve(getCancelV2Instruction({ programId, vault, canceller: chain.canceller })),
      true,
    );
    status = 'refunding';
  }
  for (const entrant of [...entered]) await closeEntry(entrant);
  for (const payer of [...receipts.keys()]) {
    if ((status as Status) === 'settled') await closeReceipt(payer);
    else await refundOne(payer);
  }
  await check('finished');
  expect(isClosed()).toBe(true);
  outcomes.push(paidToWinners > 0n ? 'settled' : 'refunded');
  for (const address of [...receiptAddress.values(), ...entryAddress.values()])
    expect(await chain.data(address)).toBeNull();

  // Every lamport is with a winner or its payer; the platform kept only what followed a payout;
  // entrants got their entries' rent back and kept exactly what they won.
  const delta = async (a: KeyPairSigner) => (await chain.balance(a.address)) - start.get(a.address)!;
  const fees = (a: KeyPairSigner) => chain.feesPaidBy(a.address) - feesAtStart.get(a.address)!;
  let sum = 0n;
  for (const a of actors) sum += (await delta(a)) + fees(a);
  expect(sum).toBe(0n);
  expect((await delta(chain.platform)) + fees(chain.platform)).toBe(strayToRentPayer);
  for (const p of payers)
    expect(await delta(p)).toBe((refunded.get(p.address) ?? 0n) - (deposited.get(p.address) ?? 0n));
  let winnings = 0n;
  for (const e of entrants) winnings += (await delta(e)) + fees(e);
  expect(winnings).toBe(paidToWinners);
  const gifts = (await delta(stranger)) + fees(stranger);
  expect(winnings + [...refunded.values()].reduce((a, b) => a + b, 0n) + strayToRentPayer).toBe(
    [...deposited.values()].reduce((a, b) => a + b, 0n) - gifts,
  );
}

describe('escrow v2: random sequences', () => {
  const only = process.env.ESCROW_PROPERTY_SEED;
  const seeds = only ? [Number(only)] : Array.from({ length: 16 }, (_, i) => 2000 + i);
  it(`keeps receipts, proposals, balances and payouts in agreement (${seeds.length} seeds)`, async () => {
    for (const seed of seeds) await run(seed, 50);
    if (!only) {
      // The seeds cover both ends of a dare, and every kind of step succeeded somewhere.
      expect(new Set(outcomes)).toEqual(new Set(['settled', 'refunded']));
      for (const action of ['propose', 'veto', 'execute', 'cancel', 'refund', 'deposit', 'enter'])
        expect(actionsSeen, action).toContain(action);
    }
  }, 120_000);
});
