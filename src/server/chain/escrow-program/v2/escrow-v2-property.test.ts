/**
 * Property test of escrow v2: random sequences of deposits, entries, proposals (by random sets of
 * judges and strangers), vetoes, executes, cancels, refunds, closes, gifts and clock moves against
 * the deployed program, checked step by step against a model. Seeded: a failure names the seed
 * that reproduces it (ESCROW_PROPERTY_SEED=n runs that one).
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { DareModel, prng } from '#test/support/chain/dare-model';
import { DAY, HOUR, START_TIME } from '#test/support/chain/escrow-chain';
import { EscrowV2Chain } from '#test/support/chain/escrow-v2-chain';
import { type DareKind, MIN_DEPOSIT_LAMPORTS } from './layout';

let chain: EscrowV2Chain;
const outcomes: string[] = [];
const actionsSeen = new Set<string>();
beforeAll(async () => {
  chain = await EscrowV2Chain.start(await startLiteSvmRuntime());
});

async function run(seed: number, steps: number) {
  const random = prng(seed);
  await chain.setTime(START_TIME);
  const kind: DareKind = random.chance(0.5) ? 'major' : 'community';
  const threshold = 1 + random.int(3);
  const payoutWindow = HOUR + BigInt(random.int(Number(2n * DAY)));
  const payers = await Promise.all([0, 1, 2, 3].map(() => chain.wallet(50n)));
  const entrants = await Promise.all([0, 1, 2].map(() => chain.wallet(1n)));
  const stranger = await chain.wallet(50n);
  const actors = [...payers, ...entrants, stranger, chain.platform, chain.guardian, ...chain.judges];
  const stake = MIN_DEPOSIT_LAMPORTS + BigInt(random.int(1_000_000_000));
  const deadline = START_TIME + DAY;
  let proposal: { winners: Address[]; executesAt: bigint } | null = null;
  const checkVault = async (context: string): Promise<void> => {
    const expected = model.status === 'proposed' || model.status === 'settled' ? proposal : null;
    expect((await chain.vault(model.dare.vault))!.proposal, context).toEqual(expected);
  };
  const setup = { seed, kind, payers, entrants, stranger, actors, checkVault };
  const model = await DareModel.start(chain, setup, () =>
    chain.createDare({
      kind,
      stake,
      creator: payers[0]!,
      threshold,
      payoutWindow,
      deadline,
      refundAfter: deadline + 3n * DAY,
    }),
  );
  const { vault } = model.dare;
  const now = () => chain.now();

  const execute = async (feePayer: KeyPairSigner) => {
    const winners = proposal?.winners ?? [entrants[0]!.address];
    const due = model.status === 'proposed' && (await now()) >= proposal!.executesAt;
    await model.payout('execute', chain.executeInstruction(vault, winners), due, winners, feePayer);
  };
  const veto = async () => {
    const inWindow = model.status === 'proposed' && (await now()) < proposal!.executesAt;
    if (!(await model.attempt('veto', chain.vetoInstruction(vault), inWindow, chain.guardian))) return;
    model.status = 'open';
    proposal = null;
  };

  const { deposit, cancelOrClose, refund, close, gift } = model.stepsAtRandom(random);
  const enter = (step: number) => {
    const proofHash = new Uint8Array(32).fill(step);
    const instruction = (entrant: KeyPairSigner) => chain.enterInstruction(vault, entrant, proofHash);
    return model.enterAtRandom(random, instruction, { paysFee: true });
  };
  const propose = async () => {
    const winners = model.winnersAtRandom(random);
    // Some judges (maybe the same twice), and sometimes a stranger among them.
    const signers: KeyPairSigner[] = Array.from({ length: 1 + random.int(3) }, () =>
      random.pick(chain.judges),
    );
    const withStranger = random.chance(0.15);
    if (withStranger) signers.push(stranger);
    const distinct = new Set(signers.filter((s) => s !== stranger).map((s) => s.address)).size;
    const t = await now();
    const ok = await model.attempt(
      `propose ${model.winnersLabel(winners)} by ${distinct}${withStranger ? '+stranger' : ''}`,
      chain.proposeInstruction(vault, winners, signers),
      model.status === 'open' &&
        !withStranger &&
        distinct >= threshold &&
        winners.every((w) => model.entered.has(w)) &&
        t + payoutWindow <= model.dare.refundAfter,
    );
    if (ok) {
      model.status = 'proposed';
      proposal = { winners, executesAt: t + payoutWindow };
    }
  };
  const executeByAnyone = () => execute(random.pick([stranger, chain.guardian, chain.platform]));
  /** Half the time while a proposal stands, the window's edge, where veto ends and execute begins. */
  const edgeOrTime = async () => {
    if (model.status !== 'proposed' || !random.chance(0.5))
      return model.passTime(BigInt(random.int(Number(DAY))));
    const at = proposal!.executesAt - BigInt(random.int(2));
    if (at > (await now())) {
      model.trace.push(`to executesAt${at < proposal!.executesAt ? '-1' : ''}`);
      await chain.setTime(at);
    }
    if (random.chance(0.5)) await execute(stranger);
    else await veto();
  };
  const table = [deposit, deposit, enter, propose, propose, veto, executeByAnyone];
  await model.runSteps(random, steps, [...table, cancelOrClose, refund, close, edgeOrTime, gift]);

  // Finish the dare whatever state it is in: nothing may be left behind.
  if (model.status === 'proposed') {
    if ((await now()) < proposal!.executesAt) await chain.setTime(proposal!.executesAt);
    await execute(stranger);
  }
  outcomes.push(await model.finish());
  for (const action of model.succeeded) actionsSeen.add(action);
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
