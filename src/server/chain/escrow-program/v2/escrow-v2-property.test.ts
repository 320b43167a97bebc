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

  await model.check('created');
  for (let step = 0; step < steps && !model.closed; step++) {
    const action = random.int(12);
    if (action <= 1) {
      const payer = random.pick(payers);
      const amount = random.chance(0.1)
        ? MIN_DEPOSIT_LAMPORTS - 1n
        : MIN_DEPOSIT_LAMPORTS + BigInt(random.int(2_000_000_000));
      await model.deposit(payer, amount);
    } else if (action === 2) {
      const entrant = random.pick(entrants);
      const proofHash = new Uint8Array(32).fill(step);
      await model.enter(entrant, chain.enterInstruction(vault, entrant, proofHash), entrant);
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
      const ok = await model.attempt(
        `propose ${winners.map((w) => entrants.findIndex((e) => e.address === w)).join('+')} by ${distinct}${withStranger ? '+stranger' : ''}`,
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
    } else if (action === 5) {
      await veto();
    } else if (action === 6) {
      await execute(random.pick([stranger, chain.guardian, chain.platform]));
    } else if (action === 7 && random.chance(0.3)) {
      await model.cancel();
    } else if (action === 8) {
      await model.refund(random.pick(payers).address);
    } else if (action === 9 || action === 7) {
      if (random.chance(0.5)) await model.closeEntry(random.pick(entrants).address);
      else await model.closeReceipt(random.pick(payers).address);
    } else if (action === 10 && model.status === 'proposed' && random.chance(0.5)) {
      // The window's edge, where veto ends and execute begins.
      const at = proposal!.executesAt - BigInt(random.int(2));
      if (at > (await now())) {
        model.trace.push(`to executesAt${at < proposal!.executesAt ? '-1' : ''}`);
        await chain.setTime(at);
      }
      if (random.chance(0.5)) await execute(stranger);
      else await veto();
    } else if (action === 10) {
      await model.passTime(BigInt(random.int(Number(DAY))));
    } else if (!model.closed) {
      await model.gift(BigInt(1 + random.int(1_000_000)));
    }
    await model.check(`step ${step}`);
  }

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
