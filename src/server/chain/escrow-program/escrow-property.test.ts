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

  const { deposit, cancelOrClose, refund, close, gift } = model.stepsAtRandom(random);
  const enter = () =>
    model.enterAtRandom(random, (entrant) => chain.enterInstruction(vault, entrant), { paysFee: false });
  const settle = async () => {
    const winners = model.winnersAtRandom(random);
    const open = model.status === 'open' && (await chain.now()) < model.dare.refundAfter;
    const due = open && winners.every((w) => model.entered.has(w));
    const instruction = chain.settleInstruction(vault, winners);
    await model.payout(`settle ${model.winnersLabel(winners)}`, instruction, due, winners);
  };
  const passTime = () => model.passTime(BigInt(random.int(40_000)));
  const table = [deposit, deposit, enter, settle, cancelOrClose, refund, close, passTime, gift];
  await model.runSteps(random, steps, table);

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
