/**
 * Every attack of version 1's list adapted to escrow v2, and every attack v2 adds
 * (docs/program.md, "Attacks"): each refused by the deployed program with its own error code, and
 * no lamport and no account byte changed (the attacker's transaction fee aside).
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
import { type LiteSvmRuntime, startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import * as attack from '#test/support/chain/attacks';
import { DAY, HOUR, SOL, START_TIME } from '#test/support/chain/escrow-chain';
import { EscrowV2Chain, type TestDareV2 } from '#test/support/chain/escrow-v2-chain';
import { ESCROW_V2_ERROR_CODE as E, escrowV2ErrorMessage } from './errors';
import { type CreateVaultV2Input, getCreateVaultV2Instruction } from './instructions';

let chain: EscrowV2Chain<LiteSvmRuntime>;
let attacker: KeyPairSigner;
beforeAll(async () => {
  chain = await EscrowV2Chain.start(await startLiteSvmRuntime());
  attacker = await chain.wallet(100n);
});

const proof = new Uint8Array(32).fill(9);

/** A dare (2 of 3 judges) with its creator's stake, one more payer and one entrant. */
async function scene(
  options: { kind?: 'community' | 'major'; threshold?: number } = {},
): Promise<attack.Scene<TestDareV2>> {
  await chain.setTime(START_TIME);
  const dare = await chain.createDare(options);
  const payer = await chain.wallet();
  const entrant = await chain.wallet(1n);
  await chain.must([await chain.depositInstruction(dare.vault, payer, SOL)]);
  await chain.must([await chain.enterInstruction(dare.vault, entrant, proof)], entrant);
  return attack.sceneOf(chain, dare, payer, entrant);
}

const setup = (): attack.AttackSetup<TestDareV2> => ({ chain, attacker, scene, expectRefused });

/** Sends as `feePayer` (the attacker); asserts the program's error and that nothing else changed. */
const expectRefused = (instructions: Instruction[], code: number, watch: Address[], feePayer = attacker) =>
  attack.expectRefused(
    chain,
    { message: escrowV2ErrorMessage, logged: true },
    { instructions, code, watch, feePayer },
  );

const judges = (...indexes: number[]) => indexes.map((i) => chain.judges[i]!);

const propose = (
  s: attack.Scene<TestDareV2>,
  winners = [s.entrant.address],
  signers: (KeyPairSigner | Address)[] = judges(0, 1),
) => chain.proposeInstruction(s.dare.vault, winners, signers);

const execute = (s: attack.Scene<TestDareV2>, winners = [s.entrant.address]) =>
  chain.executeInstruction(s.dare.vault, winners);

const veto = (s: attack.Scene<TestDareV2>, guardian: KeyPairSigner | Address = chain.guardian) =>
  chain.vetoInstruction(s.dare.vault, guardian);

const refund = (s: attack.Scene<TestDareV2>, payer = s.payer.address) =>
  chain.refundInstruction(s.dare.vault, payer);

const cancel = (s: attack.Scene<TestDareV2>, canceller = chain.canceller) =>
  chain.cancelInstruction(s.dare.vault, canceller);

const deposit = (s: attack.Scene<TestDareV2>, payer = s.payer, amount = SOL) =>
  chain.depositInstruction(s.dare.vault, payer, amount);

const enter = (s: attack.Scene<TestDareV2>, entrant: KeyPairSigner) =>
  chain.enterInstruction(s.dare.vault, entrant, proof);

/** Proposes the scene's entrant and returns when the window ends. */
async function proposed(s: attack.Scene<TestDareV2>): Promise<bigint> {
  await chain.must([await propose(s)]);
  return (await chain.vault(s.dare.vault))!.proposal!.executesAt;
}

describe('escrow v2 attacks: the server keys', () => {
  it('a stolen canceller key cannot enter a wallet and name it winner, alone or with the fee payer', async () => {
    const s = await scene();
    const fresh = await chain.wallet(1n);
    for (const signers of [[chain.canceller], [chain.platform], [chain.canceller, chain.platform]])
      for (const winner of [fresh, ...signers])
        await expectRefused(
          [await enter(s, winner), await propose(s, [winner.address], signers)],
          E.NotAJudge,
          [...s.watch, fresh.address, chain.canceller.address],
          chain.platform,
        );
    // Nor pay out what nobody proposed, nor veto.
    await expectRefused(
      [await execute(s, [chain.canceller.address])],
      E.NoProposal,
      s.watch,
      chain.canceller,
    );
    await expectRefused([await veto(s, chain.canceller)], E.NotGuardian, s.watch, chain.canceller);
  });

  it('the canceller can only cancel: everyone is refunded', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    expect((await chain.vault(s.dare.vault))!.status).toBe('refunding');
  });

  it('refuses a cancel by another key or without the signature', async () => {
    const s = await scene();
    await expectRefused([await cancel(s, attacker)], E.NotCanceller, s.watch);
    await expectRefused([attack.withoutSigner(await cancel(s), 0)], E.MissingSignature, s.watch);
  });
});

describe('escrow v2 attacks: judges and guardian', () => {
  it('refuses a proposal signed by M-1 judges', async () => {
    const s = await scene({ threshold: 3 });
    await expectRefused([await propose(s, undefined, judges(0, 2))], E.NotEnoughJudges, s.watch);
  });

  it('counts a judge listed twice once', async () => {
    const s = await scene();
    await expectRefused([await propose(s, undefined, judges(1, 1))], E.NotEnoughJudges, s.watch);
  });

  it('refuses a signer that is not a judge, or a judge of another vault, toward the threshold', async () => {
    const s = await scene();
    await expectRefused([await propose(s, undefined, [chain.judges[0]!, attacker])], E.NotAJudge, s.watch);
    const otherJudge = await chain.wallet(0n);
    await chain.createDare({ judges: [otherJudge.address], threshold: 1 });
    await expectRefused([await propose(s, undefined, [chain.judges[0]!, otherJudge])], E.NotAJudge, s.watch);
  });

  it("refuses a judge's slot the judge did not sign", async () => {
    const s = await scene();
    await expectRefused([attack.withoutSigner(await propose(s), 3)], E.MissingSignature, s.watch);
  });

  it('refuses the guardian proposing; the guardian executes no sooner than anyone', async () => {
    const s = await scene();
    await expectRefused(
      [await propose(s, undefined, [chain.guardian, chain.judges[0]!])],
      E.NotAJudge,
      s.watch,
    );
    const executesAt = await proposed(s);
    await chain.setTime(executesAt - 1n);
    await expectRefused([await execute(s)], E.WindowNotPassed, s.watch, chain.guardian);
  });

  it('refuses a veto by anyone but the guardian, or unsigned', async () => {
    const s = await scene();
    await proposed(s);
    for (const key of [attacker, chain.judges[0]!, chain.canceller, chain.platform])
      await expectRefused(
        [await veto(s, key)],
        E.NotGuardian,
        s.watch,
        key === attacker ? attacker : chain.platform,
      );
    await expectRefused([attack.withoutSigner(await veto(s), 0)], E.MissingSignature, s.watch);
  });
});

describe('escrow v2 attacks: time', () => {
  it('refuses execute one second before the window ends, and pays at its end', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt - 1n);
    await expectRefused([await execute(s)], E.WindowNotPassed, s.watch);
    await chain.setTime(executesAt);
    await chain.must([await execute(s)], attacker);
  });

  it('refuses a veto one second after the window (at its end), and accepts one a second before', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt);
    await expectRefused([await veto(s)], E.WindowPassed, s.watch);
    await chain.setTime(executesAt - 1n);
    await chain.must([await veto(s)], chain.guardian);
  });

  it('refuses a proposal whose window would end after refund_after', async () => {
    const s = await scene();
    await chain.setTime(s.dare.refundAfter - s.dare.payoutWindow + 1n);
    await expectRefused([await propose(s)], E.ProposalTooLate, s.watch);
  });

  it('refuses a second proposal, a refund, a cancel, deposits and entries while a proposal stands', async () => {
    const s = await scene();
    await proposed(s);
    await expectRefused([await propose(s)], E.ProposalPending, s.watch);
    await expectRefused([await refund(s)], E.ProposalPending, s.watch);
    await expectRefused([await cancel(s)], E.ProposalPending, s.watch);
    await expectRefused([await deposit(s)], E.ProposalPending, s.watch);
    const late = await chain.wallet(1n);
    await expectRefused([await enter(s, late)], E.ProposalPending, [...s.watch, late.address]);
    const closeEntry = await chain.closeEntryInstruction(s.dare.vault, s.entrant.address);
    await expectRefused([closeEntry], E.StillOpen, s.watch);
  });

  it('refuses a vault whose terms are outside their bounds, and accepts every bound itself', async () => {
    const now = await chain.now();
    const cases: [Partial<CreateVaultV2Input>, number][] = [
      [{ deadline: now, refundAfter: now + DAY }, E.DeadlineInPast],
      [{ deadline: now + 400n * DAY + 1n, refundAfter: now + 400n * DAY + 1n }, E.DeadlineTooFar],
      [{ deadline: now + DAY, refundAfter: now + DAY - 1n }, E.InvalidRefundAfter],
      [{ deadline: now + DAY, refundAfter: now + 61n * DAY + 1n }, E.InvalidRefundAfter],
      [{ payoutWindow: HOUR - 1n }, E.InvalidPayoutWindow],
      [{ payoutWindow: 7n * DAY + 1n }, E.InvalidPayoutWindow],
      [{ judges: [] }, E.InvalidJudges],
      [{ judges: Array.from({ length: 6 }, (_, i) => chain.judges[i % 3]!.address) }, E.InvalidJudges],
      [{ threshold: 0 }, E.InvalidJudges],
      [{ threshold: 4 }, E.InvalidJudges],
      [
        { judges: [chain.judges[0]!.address, chain.judges[1]!.address, chain.judges[0]!.address] },
        E.InvalidJudges,
      ],
      [{ amount: SOL / 100n - 1n }, E.AmountTooSmall],
    ];
    for (const [overrides, code] of cases) {
      const input = await chain.createInput(overrides);
      const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
      await expectRefused([await getCreateVaultV2Instruction(input)], code, [vault, input.creator.address]);
    }
    const judges5 = [
      ...chain.judges.map((j) => j.address),
      (await chain.wallet(0n)).address,
      attacker.address,
    ];
    for (const overrides of [
      {
        deadline: now + 400n * DAY,
        refundAfter: now + 460n * DAY,
        payoutWindow: HOUR,
        judges: judges5,
        threshold: 5,
      },
      { deadline: now + 1n, refundAfter: now + 1n, payoutWindow: 7n * DAY, threshold: 1 },
    ])
      await chain.must([await getCreateVaultV2Instruction(await chain.createInput(overrides))]);
  });
});

describe('escrow v2 attacks: entries and winners', () => {
  it('refuses a winner whose entry belongs to another vault, or whose entry is an empty address', async () => {
    const s = await scene();
    const other = await scene();
    const viaOther = attack.withAccount(await propose(s, [other.entrant.address]), 2, other.entry);
    await expectRefused([viaOther], E.InvalidEntry, [...s.watch, ...other.watch]);
    // An entry address that holds lamports but no entry (never created, or closed and re-funded).
    const fresh = await chain.wallet(1n);
    const empty = (await findEntryAddress(chain.programId, s.dare.vault, fresh.address)).address;
    await chain.gift(attacker, empty, SOL / 100n);
    await expectRefused([await propose(s, [fresh.address])], E.InvalidEntry, [...s.watch, empty]);
  });

  it("refuses a winner wallet that is not the entry's entrant", async () => {
    const s = await scene();
    const toAttacker = attack.withAccount(await propose(s), 1, attacker.address, AccountRole.READONLY);
    await expectRefused([toAttacker], E.NotAnEntrant, s.watch);
  });

  it('refuses the same entry twice, or two winners, for a community dare; one winner for a major dare', async () => {
    const s = await scene();
    await expectRefused(
      [await propose(s, [s.entrant.address, s.entrant.address])],
      E.WrongWinnerCount,
      s.watch,
    );
    const major = await scene({ kind: 'major' });
    await expectRefused([await propose(major)], E.WrongWinnerCount, major.watch);
  });

  it("keeps an entry's proof hash: entering again to change it is refused", async () => {
    const s = await scene();
    const again = await chain.enterInstruction(s.dare.vault, s.entrant, new Uint8Array(32).fill(1));
    await expectRefused([again], E.AlreadyExists, s.watch, s.entrant);
    expect([...(await chain.entry(s.entry))!.proofHash]).toEqual([...proof]);
  });

  it('refuses to name a winner whose wallet has become executable (it could never be paid)', async () => {
    const s = await scene();
    await chain.makeExecutable(s.entrant, attacker.address);
    await expectRefused([await propose(s)], E.UnpayableWinner, s.watch);
  });

  it('refuses to pay anyone but the proposed winners, in their order', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt);
    await expectRefused([await execute(s, [attacker.address])], E.WrongWinner, s.watch);
    await expectRefused([await execute(s, [s.dare.vault])], E.WrongWinner, s.watch);
    await expectRefused(
      [await execute(s, [s.entrant.address, attacker.address])],
      E.WrongAccountCount,
      s.watch,
    );
    await attack.readOnly(setup(), s, await execute(s), 1);
  });
});

describe('escrow v2 attacks: wrong, duplicated and fake accounts', () => {
  it('refuses the vault named as its own winner (duplicated account)', async () => {
    const s = await scene();
    await attack.vaultTwice(setup(), s, await propose(s), 1);
  });

  it('refuses a receipt passed where the vault belongs', () => attack.receiptPassedAsVault(setup()));

  it('refuses a fake vault owned by another program, naming the attacker winner with its window passed', async () => {
    const s = await scene();
    const data = (await chain.data(s.dare.vault))!;
    const view = new DataView(data.buffer, data.byteOffset);
    data[3] = 3; // proposed
    data[142] = 1; // one winner
    view.setBigInt64(152, 0n, true); // executes_at: long past
    data.set(new Uint8Array(32), 352);
    const fake = await attack.forgedAccount(chain, {
      data,
      owner: chain.platform.address,
      lamports: 10n * SOL,
    });
    const forged = chain.executeInstruction(fake, [attacker.address]);
    await expectRefused([forged], E.InvalidVault, [...s.watch, fake]);
  });

  it('refuses a fake receipt owned by another program', () => attack.fakeReceipt(setup()));

  it('refuses a receipt of another vault', () => attack.receiptOfAnotherVault(setup()));

  it('refuses to refund a receipt to another wallet, or its rent to anyone but its rent payer', async () => {
    const s = await attack.cancelledScene(setup());
    await attack.refundToAnotherWallet(setup(), s);
    await attack.rentToAnotherPayer(setup(), s);
    // The entrant paid the entry's rent.
    const closeEntry = await chain.closeEntryInstruction(
      s.dare.vault,
      s.entrant.address,
      chain.platform.address,
    );
    await expectRefused([closeEntry], E.WrongRentPayer, s.watch);
  });

  it('refuses a fake System program', () => attack.fakeSystemProgram(setup()));

  it('refuses a read-only vault', async () => {
    const s = await scene();
    await attack.readOnly(setup(), s, await propose(s), 0);
  });
});

describe('escrow v2 attacks: seeds and bumps', () => {
  it("refuses a vault created with a wrong bump or at another dare's address", async () => {
    const input = await chain.createInput();
    const create = await getCreateVaultV2Instruction(input);
    const data = new Uint8Array(create.data!);
    data[132] = (data[132]! + 255) % 256; // vault bump
    const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
    await expectRefused([attack.withData(create, data)], E.WrongAddress, [input.creator.address, vault]);
    const elsewhere = (await findVaultAddress(chain.programId, new Uint8Array(32).fill(2))).address;
    await expectRefused([attack.withAccount(create, 2, elsewhere)], E.WrongAddress, [
      input.creator.address,
      vault,
    ]);
  });

  it("refuses an entry at another entrant's address, and a receipt at a wrong bump", async () => {
    const s = await scene();
    const other = await chain.wallet(1n);
    const stolen = (await findEntryAddress(chain.programId, s.dare.vault, attacker.address)).address;
    await expectRefused(
      [attack.withAccount(await enter(s, other), 3, stolen)],
      E.WrongAddress,
      [...s.watch, other.address],
      other,
    );
    await attack.receiptAtWrongBump(setup(), s);
  });
});

describe('escrow v2 attacks: amounts and instruction data', () => {
  it('refuses a proposal with more than five judge slots, and more accounts than any instruction takes', async () => {
    const s = await scene();
    const five = await propose(s, undefined, judges(0, 1, 2, 0, 1));
    const six = { ...five, accounts: [...five.accounts!, five.accounts![5]!] };
    await expectRefused([six], E.WrongAccountCount, s.watch);
    const eleven = { ...five, accounts: [...five.accounts!, ...five.accounts!.slice(3, 6)] };
    await expectRefused([eleven], E.WrongAccountCount, s.watch);
  });

  it('refuses a deposit that would overflow, or under 0.01 SOL', async () => {
    const s = await scene();
    await attack.depositOverflow(setup(), s);
    await attack.depositUnderMinimum(setup(), s);
  });

  it("refuses short and long instruction data for every instruction, an unknown one, and v1's settle", async () => {
    const s = await scene();
    const instructions: Instruction[] = [
      await getCreateVaultV2Instruction(await chain.createInput({ creator: s.payer })),
      await deposit(s),
      await enter(s, s.payer),
      await cancel(s),
      await refund(s),
      await chain.closeEntryInstruction(s.dare.vault, s.entrant.address),
      await chain.closeReceiptInstruction(s.dare.vault, s.payer.address),
      await propose(s),
      await veto(s),
      await execute(s),
    ];
    // 3 was v1's settle.
    await attack.wrongDataLengths(setup(), s, instructions, { any: instructions[3]!, unknownTags: [99, 3] });
  });
});

describe('escrow v2 attacks: timing, refunds and payouts', () => {
  it('refuses a deposit and an entry at the deadline', async () => {
    const s = await scene();
    await chain.setTime(s.dare.deadline);
    await expectRefused([await deposit(s)], E.DeadlinePassed, s.watch);
    const late = await chain.wallet(1n);
    await expectRefused([await enter(s, late)], E.DeadlinePassed, [...s.watch, late.address], late);
  });

  it('refuses a refund before it is due, twice, or after the payout', async () => {
    await attack.refundBeforeDue(setup(), await scene());
    await attack.refundTwice(setup());
    const u = await scene();
    await chain.setTime(await proposed(u));
    await chain.must([await execute(u)]);
    await chain.setTime(u.dare.refundAfter);
    await expectRefused([await refund(u)], E.VaultNotOpen, u.watch);
  });

  it('refuses to execute twice, to execute or propose after a cancel, and a veto with nothing proposed', async () => {
    const s = await scene();
    await chain.setTime(await proposed(s));
    await chain.must([await execute(s)]);
    await expectRefused([await execute(s)], E.VaultNotOpen, s.watch);
    await expectRefused([await veto(s)], E.NoProposal, s.watch, chain.guardian);
    const t = await scene();
    await chain.must([await cancel(t)]);
    await expectRefused([await propose(t)], E.VaultNotOpen, t.watch);
    await expectRefused([await execute(t)], E.VaultNotOpen, t.watch);
  });

  it('refuses to close receipts before the payout and entries while open', () =>
    attack.closesBeforeTheEnd(setup()));
});

describe('escrow v2 attacks: closing and reviving, pre-funded addresses', () => {
  it('refuses to refund a receipt closed and re-funded in the same transaction', () =>
    attack.receiptRevivedInOneTransaction(setup()));

  it('leaves nothing to revive: a vault recreated at a closed address starts empty, with its new terms', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const closeEntry = await chain.closeEntryInstruction(s.dare.vault, s.entrant.address);
    const recreate = await getCreateVaultV2Instruction(
      await chain.createInput({
        creator: attacker,
        rentPayer: attacker,
        dareId: s.dare.dareId,
        judges: [attacker.address],
        threshold: 1,
        amount: SOL / 100n,
      }),
    );
    await chain.must(
      [closeEntry, await refund(s, s.dare.creator.address), await refund(s), recreate],
      attacker,
    );
    expect(await chain.vault(s.dare.vault)).toMatchObject({
      judges: [attacker.address],
      receiptCount: 1,
      entryCount: 0,
      total: SOL / 100n,
      proposal: null,
    });
    // The old entry is gone: the attacker, a judge of the new vault, cannot name the old entrant.
    await expectRefused([await propose(s, [s.entrant.address], [attacker])], E.InvalidEntry, s.watch);
  });

  it('creates a vault, receipt and entry at addresses that already hold lamports, the surplus going to the winner', async () => {
    await chain.setTime(START_TIME);
    const creator = await chain.wallet();
    const input = await chain.createInput({ creator });
    const entrant = await chain.wallet(1n);
    const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
    const receipt = (await findReceiptAddress(chain.programId, vault, input.creator.address)).address;
    const entry = (await findEntryAddress(chain.programId, vault, entrant.address)).address;
    const gift = chain.runtime.svm.minimumBalanceForRentExemption(0n);
    for (const address of [vault, receipt, entry]) await chain.gift(attacker, address, gift);
    await chain.must([await getCreateVaultV2Instruction(input)]);
    await chain.must([await chain.enterInstruction(vault, entrant, proof)], entrant);
    const rent = (await chain.vault(vault))!.rent;
    expect(await chain.balance(vault)).toBe(rent + SOL + gift);
    const dare = { ...input, creator, vault, stake: SOL, dareId: new Uint8Array(input.dareId) };
    const s = { dare, payer: creator, entrant, receipt, entry, watch: [] };
    await chain.setTime(await proposed(s));
    const before = await chain.balance(entrant.address);
    await chain.must([await execute(s)]);
    expect(await chain.balance(entrant.address)).toBe(before + SOL + gift);
  });

  it('refuses to create a vault that already exists', async () => {
    const s = await scene();
    const again = await getCreateVaultV2Instruction(
      await chain.createInput({ creator: attacker, rentPayer: attacker, dareId: s.dare.dareId }),
    );
    await expectRefused([again], E.AlreadyExists, s.watch);
  });
});

it('the guardian veto and the window are what stand between M judges and a pool', async () => {
  // A full proposal by the judges, vetoed: nothing moved, the judges can propose again.
  const s = await scene();
  await proposed(s);
  await chain.must([await veto(s)], chain.guardian);
  expect(await chain.vault(s.dare.vault)).toMatchObject({ status: 'open', proposal: null, vetoCount: 1 });
  expect(await chain.balance(s.dare.vault)).toBe(
    (await chain.vault(s.dare.vault))!.rent + s.dare.stake + SOL,
  );
  expect(DAY).toBe(86_400n);
});

it('accepts another rent payer for an entry, and its close returns the rent there, not to the entrant', async () => {
  const s = await scene();
  const entrant = await chain.wallet(0n);
  const sponsor = await chain.wallet(1n);
  await chain.must([await chain.enterInstruction(s.dare.vault, entrant, proof, sponsor)], sponsor);
  const entry = (await findEntryAddress(chain.programId, s.dare.vault, entrant.address)).address;
  const recorded = (await chain.entry(entry))!;
  expect(recorded).toMatchObject({ entrant: entrant.address, rentPayer: sponsor.address });
  await chain.must([await cancel(s)]);
  const close = (rentPayer: Address) => chain.closeEntryInstruction(s.dare.vault, entrant.address, rentPayer);
  await expectRefused([await close(entrant.address)], E.WrongRentPayer, [...s.watch, entry, sponsor.address]);
  const before = await chain.balance(sponsor.address);
  await chain.must([await close(sponsor.address)]);
  expect(await chain.balance(sponsor.address)).toBe(before + recorded.rent);
});
