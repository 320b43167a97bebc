/**
 * Escrow v2's happy paths and its freezing case as scenarios: each takes a fresh ProgramRuntime,
 * checks what must hold on any runtime, and reports lamports (and outcomes) by name, so that
 * escrow-v2-program.test.ts runs the same code on LiteSVM and on solana-bankrun and compares the
 * reports lamport for lamport. Bankrun's limits shape them: the program is deployed once, before
 * anything runs (one slot move per runtime); time moves with `setTime` only; the one extra deploy
 * (the executable rent payer) is never invoked; no transaction repeats an earlier one.
 */
import type { Address, KeyPairSigner } from '@solana/kit';
import { expect } from 'vitest';
import { balances, dareBalances, outcome, type Report } from '#server/chain/escrow-program/runtimes/compare';
import type { ProgramRuntime } from '#server/chain/escrow-program/runtimes/runtime';
import { ESCROW_V2_ERROR_CODE as E } from '#server/chain/escrow-program/v2/errors';
import type { PlannedTransaction } from '#server/chain/escrow-program/v2/payout-plan';
import { DAY, SOL } from '#test/support/chain/escrow-chain';
import { EscrowV2Chain, type TestDareV2 } from '#test/support/chain/escrow-v2-chain';

/** A v2 chain on `runtime` with the steps every scenario takes. */
async function dareSteps(runtime: ProgramRuntime) {
  const chain = await EscrowV2Chain.start(runtime);
  const stranger = await chain.wallet(100n);

  const proofOf = (label: string) => new Uint8Array(32).fill(label.charCodeAt(0));

  async function deposit(dare: TestDareV2, payer: KeyPairSigner, amount: bigint) {
    await chain.must([await chain.depositInstruction(dare.vault, payer, amount)]);
  }

  /** The entrant signs, pays the fee and the entry's rent. */
  async function enter(dare: TestDareV2, entrant: KeyPairSigner, proof = proofOf('p')) {
    await chain.must([await chain.enterInstruction(dare.vault, entrant, proof)], entrant);
  }

  async function propose(dare: TestDareV2, winners: Address[], judges?: KeyPairSigner[]) {
    await chain.must([await chain.proposeInstruction(dare.vault, winners, judges)]);
  }

  const entryOf = (dare: TestDareV2, entrant: Address) => chain.entryAddress(dare.vault, entrant);
  const receiptOf = (dare: TestDareV2, payer: Address) => chain.receiptAddress(dare.vault, payer);

  /** Sends each planned transaction on its own, by the stranger; returns the results in order. */
  const sendEach = (plan: PlannedTransaction[]) => chain.sendEach(plan, stranger);

  const closes = (dare: TestDareV2, payers: Address[], entrants: Address[], refund: boolean) =>
    chain.closePlan(dare.vault, payers, entrants, { refund });

  /** Execute, sent by the stranger: anyone may. */
  async function execute(dare: TestDareV2, winners: Address[]) {
    await chain.must([chain.executeInstruction(dare.vault, winners)], stranger);
  }

  /** Each record's close (with `refund`, refunds) on its own, every one of which must succeed. */
  async function closeAll(dare: TestDareV2, payers: Address[], entrants: Address[], { refund = false } = {}) {
    for (const result of await sendEach(await closes(dare, payers, entrants, refund)))
      expect(result.ok).toBe(true);
  }

  return {
    chain,
    stranger,
    proofOf,
    deposit,
    enter,
    propose,
    execute,
    entryOf,
    receiptOf,
    sendEach,
    closes,
    closeAll,
  };
}

/**
 * Every way v2 pays or refunds, on one chain: a community payout by 2 of 3 judges with every
 * record closed; major 70/30 (two wallets, then one wallet named twice); a veto, a deposit into the
 * reopened vault and a second proposal; a proposal executed past refund_after while refunds are
 * refused; a cancel with every payer and entrant refunded; anyone's refunds past refund_after.
 * Wallets start with whole SOL, so each reported balance is exact.
 */
export async function v2HappyPaths(runtime: ProgramRuntime): Promise<Report> {
  const steps = await dareSteps(runtime);
  const { chain, stranger, proofOf, deposit, enter, propose, execute, entryOf, receiptOf } = steps;
  const report: Report = {};
  const platformStart = await chain.balance(chain.platform.address);

  // Community: 2 of 3 judges name the winner; execute after the window; every record closes.
  const dare = await chain.createDare();
  const payer = await chain.wallet();
  const [winner, loser] = [await chain.wallet(1n), await chain.wallet(1n)];
  await deposit(dare, payer, SOL);
  await enter(dare, winner, proofOf('w'));
  await enter(dare, loser, proofOf('l'));
  const winnerEntry = (await chain.entry(await entryOf(dare, winner.address)))!;
  expect(winnerEntry).toMatchObject({
    entrant: winner.address,
    rentPayer: winner.address,
    vault: dare.vault,
  });
  expect([...winnerEntry.proofHash]).toEqual([...proofOf('w')]);
  report['entry rent'] = winnerEntry.rent;
  expect((await chain.vault(dare.vault))!).toMatchObject({
    status: 'open',
    judges: chain.judges.map((j) => j.address),
    threshold: 2,
    guardian: chain.guardian.address,
    canceller: chain.canceller.address,
    payoutWindow: DAY,
    proposal: null,
    entryCount: 2,
    receiptCount: 2,
    total: dare.stake + SOL,
  });
  Object.assign(report, await balances(runtime, { 'community: vault while open': dare.vault }));
  const proposedAt = await chain.now();
  await propose(dare, [winner.address]);
  expect((await chain.vault(dare.vault))!.proposal).toEqual({
    winners: [winner.address],
    executesAt: proposedAt + DAY,
  });
  await chain.setTime(proposedAt + DAY);
  await execute(dare, [winner.address]);
  expect((await chain.vault(dare.vault))!.status).toBe('settled');
  const plan = await steps.closes(
    dare,
    [dare.creator.address, payer.address],
    [winner.address, loser.address],
    false,
  );
  expect(plan).toHaveLength(4);
  for (const result of await steps.sendEach(plan)) expect(result.ok).toBe(true);
  for (const address of [
    await receiptOf(dare, payer.address),
    await receiptOf(dare, dare.creator.address),
    await entryOf(dare, winner.address),
    await entryOf(dare, loser.address),
  ])
    expect(await chain.data(address)).toBeNull();
  Object.assign(report, await dareBalances(runtime, 'community', dare, { payer, winner, loser }));

  // Major: 70/30 of an odd pot, the odd lamport to the first share; then one wallet named twice.
  for (const same of [false, true]) {
    const label = same ? 'major, one wallet twice' : 'major';
    const major = await chain.createDare({ kind: 'major', stake: SOL / 10n + 7n });
    const depositor = await chain.wallet();
    await deposit(major, depositor, SOL + 6n);
    const first = await chain.wallet(1n);
    const second = same ? first : await chain.wallet(1n);
    await enter(major, first);
    if (!same) await enter(major, second);
    const at = await chain.now();
    await propose(major, [first.address, second.address], chain.judges);
    await chain.setTime(at + DAY);
    await execute(major, [first.address, second.address]);
    await steps.closeAll(
      major,
      [major.creator.address, depositor.address],
      same ? [first.address] : [first.address, second.address],
    );
    report[`${label}: first`] = await chain.balance(first.address);
    if (!same) report[`${label}: second`] = await chain.balance(second.address);
    await chain.setTime((await chain.now()) + 1n);
  }

  // Veto: the guardian clears the proposal inside the window; the vault takes deposits again and
  // other judges name another winner.
  const vetoed = await chain.createDare();
  const [named, paid] = [await chain.wallet(1n), await chain.wallet(1n)];
  await enter(vetoed, named);
  await enter(vetoed, paid);
  await propose(vetoed, [named.address]);
  await chain.setTime((await chain.now()) + DAY - 1n);
  await chain.must([chain.vetoInstruction(vetoed.vault)]);
  const reopened = (await chain.vault(vetoed.vault))!;
  expect(reopened).toMatchObject({ status: 'open', proposal: null });
  report['veto: veto count'] = BigInt(reopened.vetoCount);
  const vetoDepositor = await chain.wallet();
  await deposit(vetoed, vetoDepositor, SOL);
  const reproposedAt = await chain.now();
  await propose(vetoed, [paid.address], [chain.judges[2]!, chain.judges[0]!]);
  await chain.setTime(reproposedAt + DAY);
  await execute(vetoed, [paid.address]);
  await steps.closeAll(
    vetoed,
    [vetoed.creator.address, vetoDepositor.address],
    [named.address, paid.address],
  );
  Object.assign(
    report,
    await balances(runtime, { 'veto: named then vetoed': named.address, 'veto: paid': paid.address }),
  );

  // The latest proposal possible (its window ends at refund_after), executed after refund_after;
  // refunds are refused while it stands.
  const late = await chain.createDare();
  const lateWinner = await chain.wallet(1n);
  await enter(late, lateWinner);
  await chain.setTime(late.refundAfter - DAY);
  await propose(late, [lateWinner.address]);
  await chain.setTime(late.refundAfter + DAY);
  const refused = await chain.send(
    [await chain.refundInstruction(late.vault, late.creator.address)],
    stranger,
  );
  expect(refused.ok ? null : refused.code).toBe(E.ProposalPending);
  report['late: refund while the proposal stands (error code)'] = BigInt(
    refused.ok ? -1 : (refused.code ?? -1),
  );
  await execute(late, [lateWinner.address]);
  await steps.closeAll(late, [late.creator.address], [lateWinner.address]);
  report['late: winner'] = await chain.balance(lateWinner.address);

  // Cancel: every payer gets exactly what they put in, the entrant its entry's rent.
  const cancelled = await chain.createDare();
  const cancelPayer = await chain.wallet();
  const entrant = await chain.wallet(1n);
  await deposit(cancelled, cancelPayer, 2n * SOL + 3n);
  await enter(cancelled, entrant);
  await chain.must([chain.cancelInstruction(cancelled.vault)]);
  await steps.closeAll(cancelled, [cancelled.creator.address, cancelPayer.address], [entrant.address], {
    refund: true,
  });
  Object.assign(report, await dareBalances(runtime, 'cancel', cancelled, { payer: cancelPayer, entrant }));
  report.canceller = await chain.balance(chain.canceller.address);

  // No proposal by refund_after: anyone refunds each payer.
  const expired = await chain.createDare();
  const expiredPayer = await chain.wallet();
  await deposit(expired, expiredPayer, SOL);
  await chain.setTime(expired.refundAfter);
  await steps.closeAll(expired, [expiredPayer.address, expired.creator.address], [], { refund: true });
  Object.assign(report, await dareBalances(runtime, 'expired', expired, { payer: expiredPayer }));

  // The platform lent every vault's and receipt's rent and got all of it back: it paid fees only.
  report['platform: spent (fees only)'] = platformStart - (await chain.balance(chain.platform.address));
  expect(report['platform: spent (fees only)']).toBe(chain.feesPaidBy(chain.platform.address));
  report['stranger: spent (fees only)'] = 100n * SOL - (await chain.balance(stranger.address));
  return report;
}

/**
 * An entrant empties its wallet and deploys a program at its own address: the entry's rent payer
 * is now executable. Execute and each close are sent on their own (as the client does): whether
 * the runtime credits that account or refuses, only that entry's close can be held up.
 */
export async function v2ExecutableRentPayer(runtime: ProgramRuntime): Promise<Report> {
  const steps = await dareSteps(runtime);
  const { chain, stranger, deposit, enter, propose, entryOf, receiptOf } = steps;
  const dare = await chain.createDare();
  const payer = await chain.wallet();
  const [winner, frozen] = [await chain.wallet(1n), await chain.wallet(1n)];
  await deposit(dare, payer, SOL);
  await enter(dare, winner);
  await enter(dare, frozen);
  const frozenEntry = await entryOf(dare, frozen.address);
  const entryRent = (await chain.entry(frozenEntry))!.rent;
  // Nobody calls the program at the entrant's address: only its being executable matters.
  await chain.makeExecutable(frozen, stranger.address);
  const frozenAccount = (await chain.account(frozen.address))!;
  // A program account of the upgradeable loader. Agave 1.18 treats it as executable but its
  // BanksServer reports the stored flag (false): the owner is what both runtimes agree on.
  expect(frozenAccount.owner).toBe('BPFLoaderUpgradeab1e11111111111111111111111');

  const proposedAt = await chain.now();
  await propose(dare, [winner.address]);
  await chain.setTime(proposedAt + DAY);
  const report: Report = {
    execute: outcome(await chain.send([chain.executeInstruction(dare.vault, [winner.address])], stranger)),
  };
  const plan = await steps.closes(
    dare,
    [dare.creator.address, payer.address],
    [frozen.address, winner.address],
    false,
  );
  const results = await steps.sendEach(plan);
  plan.forEach((step, index) => {
    const whose =
      step.closes?.owner === frozen.address
        ? 'the frozen entrant'
        : step.closes?.owner === winner.address
          ? 'the winner'
          : step.closes?.owner === payer.address
            ? 'the payer'
            : 'the creator';
    report[`close ${step.closes?.kind} of ${whose}`] = outcome(results[index]!);
  });
  for (const address of [
    await receiptOf(dare, payer.address),
    await receiptOf(dare, dare.creator.address),
    await entryOf(dare, winner.address),
  ])
    expect(await chain.data(address)).toBeNull();
  Object.assign(
    report,
    await balances(runtime, {
      winner: winner.address,
      creator: dare.creator.address,
      payer: payer.address,
      'vault after the closes': dare.vault,
      'frozen entry after the closes': frozenEntry,
    }),
  );
  report['entry rent'] = entryRent;
  report['the frozen entrant got back'] = (await chain.balance(frozen.address)) - frozenAccount.lamports;
  const vault = await chain.vault(dare.vault);
  report['vault rent'] = vault?.rent ?? 0n;
  if (vault) expect(vault).toMatchObject({ status: 'settled', entryCount: 1, receiptCount: 0 });
  return report;
}
