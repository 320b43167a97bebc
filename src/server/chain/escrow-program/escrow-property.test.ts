/**
 * Property test: random sequences of deposits, entries, settle / cancel / refund / close and
 * clock moves against the deployed program, checked step by step against a model. Seeded, so a
 * failure names the seed that reproduces it (ESCROW_PROPERTY_SEED=n runs that one).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DareModel, prng } from '#test/support/chain/dare-model';
import { EscrowV1Chain } from '#test/support/chain/escrow-v1-chain';
import type { DareKind } from './layout';
import { MIN_DEPOSIT_LAMPORTS } from './layout';
import { startLiteSvmRuntime } from './runtimes/litesvm';

let chain: EscrowV1Chain;
const outcomes: string[] = [];
beforeAll(async () => {
  chain = await EscrowV1Chain.start(await startLiteSvmRuntime());
});

async function run(seed: number, steps: number) {
  const random = prng(seed);
  await chain.setTime(1_000_000n);
  const kind: DareKind = random.chance(0.5) ? 'major' : 'community';
  const payers = await Promise.all([0, 1, 2, 3].map(() => chain.wallet(50n)));
  const entrants = await Promise.all([0, 1, 2].map(() => chain.wallet(0n)));
  const stranger = await chain.wallet(50n);
  const actors = [...payers, ...entrants, stranger, chain.platform];
  const stake = MIN_DEPOSIT_LAMPORTS + BigInt(random.int(1_000_000_000));
  const model = await DareModel.start(chain, { seed, kind, payers, entrants, stranger, actors }, () =>
    chain.createDare({ kind, stake, creator: payers[0]! }),
  );
  const { vault } = model.dare;

  await model.check('created');
  for (let step = 0; step < steps && !model.closed; step++) {
    const action = random.int(9);
    if (action === 0 || action === 1) {
      const payer = random.pick(payers);
      const amount = random.chance(0.1)
        ? MIN_DEPOSIT_LAMPORTS - 1n
        : MIN_DEPOSIT_LAMPORTS + BigInt(random.int(2_000_000_000));
      await model.deposit(payer, amount);
    } else if (action === 2) {
      const entrant = random.pick(entrants);
      await model.enter(entrant, chain.enterInstruction(vault, entrant));
    } else if (action === 3) {
      const winners = (
        kind === 'major' ? [random.pick(entrants), random.pick(entrants)] : [random.pick(entrants)]
      ).map((w) => w.address);
      await model.payout(
        `settle ${winners.map((w) => entrants.findIndex((e) => e.address === w)).join('+')}`,
        chain.settleInstruction(vault, winners),
        model.status === 'open' &&
          (await chain.now()) < model.dare.refundAfter &&
          winners.every((w) => model.entered.has(w)),
        winners,
      );
    } else if (action === 4 && random.chance(0.3)) {
      await model.cancel();
    } else if (action === 5) {
      await model.refund(random.pick(payers).address);
    } else if (action === 6 || action === 4) {
      if (random.chance(0.5)) await model.closeEntry(random.pick(entrants).address);
      else await model.closeReceipt(random.pick(payers).address);
    } else if (action === 7) {
      await model.passTime(BigInt(random.int(40_000)));
    } else if (!model.closed) {
      await model.gift(BigInt(1 + random.int(1_000_000)));
    }
    await model.check(`step ${step}`);
  }

  // Finish the dare whatever state it is in: nothing may be left behind.
  outcomes.push(await model.finish());
}

describe('escrow program: random sequences', () => {
  const only = process.env.ESCROW_PROPERTY_SEED;
  const seeds = only ? [Number(only)] : Array.from({ length: 16 }, (_, i) => 1000 + i);
  it(`keeps receipts, balances and payouts in agreement (${seeds.length} seeds)`, async () => {
    for (const seed of seeds) await run(seed, 40);
    // The seeds cover both ends of a dare.
    if (!only) expect(new Set(outcomes)).toEqual(new Set(['settled', 'refunded']));
  }, 60_000);
});
