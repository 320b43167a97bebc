/**
 * Every attack of version 1's list adapted to escrow v2, and every attack v2 adds
 * (docs/program.md, "Attacks"): each refused by the deployed program with its own error code, and
 * no lamport and no account byte changed (the attacker's transaction fee aside).
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { type LiteSvmRuntime, startLiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { deployPrograms } from '#server/chain/escrow-program/runtimes/runtime';
import {
  DAY,
  EscrowV2Chain,
  HOUR,
  SOL,
  START_TIME,
  type TestDareV2,
} from '#test/support/chain/escrow-v2-chain';
import { ESCROW_V2_ERROR_CODE as E, escrowV2ErrorMessage } from './errors';
import {
  type CreateVaultV2Input,
  getCancelV2Instruction,
  getCloseEntryV2Instruction,
  getCloseReceiptV2Instruction,
  getCreateVaultV2Instruction,
  getDepositV2Instruction,
  getEnterV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getRefundV2Instruction,
  getVetoInstruction,
} from './instructions';

let chain: EscrowV2Chain<LiteSvmRuntime>;
let attacker: KeyPairSigner;
beforeAll(async () => {
  chain = await EscrowV2Chain.start(await startLiteSvmRuntime());
  attacker = await chain.wallet(100n);
});

const proof = new Uint8Array(32).fill(9);

interface Scene {
  dare: TestDareV2;
  payer: KeyPairSigner;
  entrant: KeyPairSigner;
  receipt: Address;
  entry: Address;
}

/** A dare (2 of 3 judges) with its creator's stake, one more payer and one entrant. */
async function scene(options: { kind?: 'community' | 'major'; threshold?: number } = {}): Promise<Scene> {
  await chain.setTime(START_TIME);
  const dare = await chain.createDare(options);
  const payer = await chain.wallet();
  const entrant = await chain.wallet(1n);
  await chain.must([
    await getDepositV2Instruction({
      programId: chain.programId,
      vault: dare.vault,
      payer,
      rentPayer: chain.platform,
      amount: SOL,
    }),
  ]);
  await chain.must(
    [
      await getEnterV2Instruction({
        programId: chain.programId,
        vault: dare.vault,
        entrant,
        proofHash: proof,
      }),
    ],
    entrant,
  );
  return {
    dare,
    payer,
    entrant,
    receipt: (await findReceiptAddress(chain.programId, dare.vault, payer.address)).address,
    entry: (await findEntryAddress(chain.programId, dare.vault, entrant.address)).address,
  };
}

async function snapshot(addresses: Address[]) {
  return Promise.all(
    addresses.map(async (address) => ({ address, account: await chain.runtime.getAccount(address) })),
  );
}

/** Sends as `feePayer` (the attacker); asserts the program's error and that nothing else changed. */
async function expectRefused(
  instructions: Instruction[],
  code: number,
  watch: Address[],
  feePayer = attacker,
) {
  const accounts = new Set<Address>(watch);
  for (const instruction of instructions)
    for (const meta of instruction.accounts ?? []) accounts.add(meta.address);
  accounts.delete(feePayer.address);
  const before = await snapshot([...accounts]);
  const feePayerBefore = await chain.balance(feePayer.address);
  const feesBefore = chain.feesPaidBy(feePayer.address);
  const result = await chain.send(instructions, feePayer);
  expect(result.ok, 'the transaction should fail').toBe(false);
  if (!result.ok) {
    expect(result.code, `${result.error} (wanted ${escrowV2ErrorMessage(code)})`).toBe(code);
    expect(result.logs.join('\n'), JSON.stringify(instructions.map((i) => [...(i.data ?? [])]))).toContain(
      `Program log: 0xda7e, 0x${code.toString(16)}, 0x0, 0x0, 0x0`,
    );
  }
  expect(await snapshot([...accounts])).toEqual(before);
  expect(await chain.balance(feePayer.address)).toBe(
    feePayerBefore - (chain.feesPaidBy(feePayer.address) - feesBefore),
  );
}

function watchOf(s: Scene): Address[] {
  return [
    s.dare.vault,
    s.receipt,
    s.entry,
    s.payer.address,
    s.entrant.address,
    s.dare.creator.address,
    chain.platform.address,
  ];
}

const judges = (...indexes: number[]) => indexes.map((i) => chain.judges[i]!);

const propose = (
  s: Scene,
  winners = [s.entrant.address],
  signers: (KeyPairSigner | Address)[] = judges(0, 1),
) => getProposeInstruction({ programId: chain.programId, vault: s.dare.vault, winners, judges: signers });

const execute = (s: Scene, winners = [s.entrant.address]) =>
  getExecuteInstruction({ programId: chain.programId, vault: s.dare.vault, winners });

const veto = (s: Scene, guardian: KeyPairSigner | Address = chain.guardian) =>
  getVetoInstruction({ programId: chain.programId, vault: s.dare.vault, guardian });

const refund = (s: Scene, payer = s.payer.address) =>
  getRefundV2Instruction({
    programId: chain.programId,
    vault: s.dare.vault,
    payer,
    receiptRentPayer: chain.platform.address,
    vaultRentPayer: chain.platform.address,
  });

const cancel = (s: Scene, canceller = chain.canceller) =>
  getCancelV2Instruction({ programId: chain.programId, vault: s.dare.vault, canceller });

const deposit = (s: Scene, payer = s.payer, amount = SOL) =>
  getDepositV2Instruction({
    programId: chain.programId,
    vault: s.dare.vault,
    payer,
    rentPayer: chain.platform,
    amount,
  });

const enter = (s: Scene, entrant: KeyPairSigner) =>
  getEnterV2Instruction({ programId: chain.programId, vault: s.dare.vault, entrant, proofHash: proof });

/** Proposes the scene's entrant and returns when the window ends. */
async function proposed(s: Scene): Promise<bigint> {
  await chain.must([await propose(s)]);
  return (await chain.vault(s.dare.vault))!.proposal!.executesAt;
}

async function createInput(overrides: Partial<CreateVaultV2Input> = {}): Promise<CreateVaultV2Input> {
  const creator = overrides.creator ?? (await chain.wallet());
  return {
    ...(await chain.terms()),
    programId: chain.programId,
    creator,
    rentPayer: chain.platform,
    dareId: crypto.getRandomValues(new Uint8Array(32)),
    amount: SOL,
    ...overrides,
  };
}

/** The same instruction with account `index` no longer signing (the signature is simply absent). */
function withoutSigner(instruction: Instruction, index: number): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  const meta = accounts[index]!;
  accounts[index] = {
    address: meta.address,
    role: meta.role === AccountRole.WRITABLE_SIGNER ? AccountRole.WRITABLE : AccountRole.READONLY,
  };
  return { ...instruction, accounts };
}

function withAccount(
  instruction: Instruction,
  index: number,
  address: Address,
  role = instruction.accounts![index]!.role,
): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  accounts[index] = { address, role: role & ~0b10 } as (typeof accounts)[number]; // a plain address cannot sign
  return { ...instruction, accounts };
}

function withData(instruction: Instruction, data: Uint8Array): Instruction {
  return { ...instruction, data };
}

/** Turns `wallet` into an executable account for real: emptied, then a program deployed at its address. */
async function makeExecutable(wallet: KeyPairSigner) {
  const balance = await chain.balance(wallet.address);
  if (balance > 0n)
    await chain.must(
      [getTransferSolInstruction({ source: wallet, destination: attacker.address, amount: balance })],
      chain.platform,
    );
  await deployPrograms(chain.runtime, [{ bytes: readEscrowProgram(), program: wallet }], { invoked: false });
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
          [...watchOf(s), fresh.address, chain.canceller.address],
          chain.platform,
        );
    // Nor pay out what nobody proposed, nor veto.
    await expectRefused(
      [await execute(s, [chain.canceller.address])],
      E.NoProposal,
      watchOf(s),
      chain.canceller,
    );
    await expectRefused([await veto(s, chain.canceller)], E.NotGuardian, watchOf(s), chain.canceller);
  });

  it('the canceller can only cancel: everyone is refunded', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    expect((await chain.vault(s.dare.vault))!.status).toBe('refunding');
  });

  it('refuses a cancel by another key or without the signature', async () => {
    const s = await scene();
    await expectRefused([await cancel(s, attacker)], E.NotCanceller, watchOf(s));
    await expectRefused([withoutSigner(await cancel(s), 0)], E.MissingSignature, watchOf(s));
  });
});

describe('escrow v2 attacks: judges and guardian', () => {
  it('refuses a proposal signed by M-1 judges', async () => {
    const s = await scene({ threshold: 3 });
    await expectRefused([await propose(s, undefined, judges(0, 2))], E.NotEnoughJudges, watchOf(s));
  });

  it('counts a judge listed twice once', async () => {
    const s = await scene();
    await expectRefused([await propose(s, undefined, judges(1, 1))], E.NotEnoughJudges, watchOf(s));
  });

  it('refuses a signer that is not a judge, or a judge of another vault, toward the threshold', async () => {
    const s = await scene();
    await expectRefused([await propose(s, undefined, [chain.judges[0]!, attacker])], E.NotAJudge, watchOf(s));
    const otherJudge = await chain.wallet(0n);
    await chain.createDare({ judges: [otherJudge.address], threshold: 1 });
    await expectRefused(
      [await propose(s, undefined, [chain.judges[0]!, otherJudge])],
      E.NotAJudge,
      watchOf(s),
    );
  });

  it("refuses a judge's slot the judge did not sign", async () => {
    const s = await scene();
    await expectRefused([withoutSigner(await propose(s), 3)], E.MissingSignature, watchOf(s));
  });

  it('refuses the guardian proposing; the guardian executes no sooner than anyone', async () => {
    const s = await scene();
    await expectRefused(
      [await propose(s, undefined, [chain.guardian, chain.judges[0]!])],
      E.NotAJudge,
      watchOf(s),
    );
    const executesAt = await proposed(s);
    await chain.setTime(executesAt - 1n);
    await expectRefused([await execute(s)], E.WindowNotPassed, watchOf(s), chain.guardian);
  });

  it('refuses a veto by anyone but the guardian, or unsigned', async () => {
    const s = await scene();
    await proposed(s);
    for (const key of [attacker, chain.judges[0]!, chain.canceller, chain.platform])
      await expectRefused(
        [await veto(s, key)],
        E.NotGuardian,
        watchOf(s),
        key === attacker ? attacker : chain.platform,
      );
    await expectRefused([withoutSigner(await veto(s), 0)], E.MissingSignature, watchOf(s));
  });
});

describe('escrow v2 attacks: time', () => {
  it('refuses execute one second before the window ends, and pays at its end', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt - 1n);
    await expectRefused([await execute(s)], E.WindowNotPassed, watchOf(s));
    await chain.setTime(executesAt);
    await chain.must([await execute(s)], attacker);
  });

  it('refuses a veto one second after the window (at its end), and accepts one a second before', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt);
    await expectRefused([await veto(s)], E.WindowPassed, watchOf(s));
    await chain.setTime(executesAt - 1n);
    await chain.must([await veto(s)], chain.guardian);
  });

  it('refuses a proposal whose window would end after refund_after', async () => {
    const s = await scene();
    await chain.setTime(s.dare.refundAfter - s.dare.payoutWindow + 1n);
    await expectRefused([await propose(s)], E.ProposalTooLate, watchOf(s));
  });

  it('refuses a second proposal, a refund, a cancel, deposits and entries while a proposal stands', async () => {
    const s = await scene();
    await proposed(s);
    await expectRefused([await propose(s)], E.ProposalPending, watchOf(s));
    await expectRefused([await refund(s)], E.ProposalPending, watchOf(s));
    await expectRefused([await cancel(s)], E.ProposalPending, watchOf(s));
    await expectRefused([await deposit(s)], E.ProposalPending, watchOf(s));
    const late = await chain.wallet(1n);
    await expectRefused([await enter(s, late)], E.ProposalPending, [...watchOf(s), late.address]);
    const closeEntry = await getCloseEntryV2Instruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant.address,
      entryRentPayer: s.entrant.address,
      vaultRentPayer: chain.platform.address,
    });
    await expectRefused([closeEntry], E.StillOpen, watchOf(s));
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
      const input = await createInput(overrides);
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
      await chain.must([await getCreateVaultV2Instruction(await createInput(overrides))]);
  });
});

describe('escrow v2 attacks: entries and winners', () => {
  it('refuses a winner whose entry belongs to another vault, or whose entry is an empty address', async () => {
    const s = await scene();
    const other = await scene();
    const viaOther = withAccount(await propose(s, [other.entrant.address]), 2, other.entry);
    await expectRefused([viaOther], E.InvalidEntry, [...watchOf(s), ...watchOf(other)]);
    // An entry address that holds lamports but no entry (never created, or closed and re-funded).
    const fresh = await chain.wallet(1n);
    const empty = (await findEntryAddress(chain.programId, s.dare.vault, fresh.address)).address;
    await chain.gift(attacker, empty, SOL / 100n);
    await expectRefused([await propose(s, [fresh.address])], E.InvalidEntry, [...watchOf(s), empty]);
  });

  it("refuses a winner wallet that is not the entry's entrant", async () => {
    const s = await scene();
    const toAttacker = withAccount(await propose(s), 1, attacker.address, AccountRole.READONLY);
    await expectRefused([toAttacker], E.NotAnEntrant, watchOf(s));
  });

  it('refuses the same entry twice, or two winners, for a community dare; one winner for a major dare', async () => {
    const s = await scene();
    await expectRefused(
      [await propose(s, [s.entrant.address, s.entrant.address])],
      E.WrongWinnerCount,
      watchOf(s),
    );
    const major = await scene({ kind: 'major' });
    await expectRefused([await propose(major)], E.WrongWinnerCount, watchOf(major));
  });

  it("keeps an entry's proof hash: entering again to change it is refused", async () => {
    const s = await scene();
    const again = await getEnterV2Instruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant,
      proofHash: new Uint8Array(32).fill(1),
    });
    await expectRefused([again], E.AlreadyExists, watchOf(s), s.entrant);
    expect([...(await chain.entry(s.entry))!.proofHash]).toEqual([...proof]);
  });

  it('refuses to name a winner whose wallet has become executable (it could never be paid)', async () => {
    const s = await scene();
    await makeExecutable(s.entrant);
    await expectRefused([await propose(s)], E.UnpayableWinner, watchOf(s));
  });

  it('refuses to pay anyone but the proposed winners, in their order', async () => {
    const s = await scene();
    const executesAt = await proposed(s);
    await chain.setTime(executesAt);
    await expectRefused([await execute(s, [attacker.address])], E.WrongWinner, watchOf(s));
    await expectRefused([await execute(s, [s.dare.vault])], E.WrongWinner, watchOf(s));
    await expectRefused(
      [await execute(s, [s.entrant.address, attacker.address])],
      E.WrongAccountCount,
      watchOf(s),
    );
    await expectRefused(
      [withAccount(await execute(s), 1, s.entrant.address, AccountRole.READONLY)],
      E.NotWritable,
      watchOf(s),
    );
  });
});

describe('escrow v2 attacks: wrong, duplicated and fake accounts', () => {
  it('refuses the vault named as its own winner (duplicated account)', async () => {
    const s = await scene();
    await expectRefused([withAccount(await propose(s), 1, s.dare.vault)], E.DuplicateAccount, watchOf(s));
  });

  it('refuses a receipt passed where the vault belongs', async () => {
    const s = await scene();
    await expectRefused([withAccount(await refund(s), 0, s.receipt)], E.InvalidVault, watchOf(s));
  });

  it('refuses a fake vault owned by another program, naming the attacker winner with its window passed', async () => {
    const s = await scene();
    const fake = (await chain.wallet(0n)).address;
    const data = (await chain.data(s.dare.vault))!;
    const view = new DataView(data.buffer, data.byteOffset);
    data[3] = 3; // proposed
    data[142] = 1; // one winner
    view.setBigInt64(152, 0n, true); // executes_at: long past
    data.set(new Uint8Array(32), 352);
    chain.runtime.svm.setAccount({
      address: fake,
      lamports: lamports(10n * SOL),
      programAddress: chain.platform.address,
      executable: false,
      data,
      space: BigInt(data.length),
    });
    const forged = getExecuteInstruction({
      programId: chain.programId,
      vault: fake,
      winners: [attacker.address],
    });
    await expectRefused([forged], E.InvalidVault, [...watchOf(s), fake]);
  });

  it('refuses a fake receipt owned by another program', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const fake = (await chain.wallet(0n)).address;
    const data = (await chain.data(s.receipt))!;
    new DataView(data.buffer, data.byteOffset).setBigUint64(104, 100n * SOL, true);
    chain.runtime.svm.setAccount({
      address: fake,
      lamports: lamports(SOL),
      programAddress: attacker.address,
      executable: false,
      data,
      space: BigInt(data.length),
    });
    await expectRefused([withAccount(await refund(s), 1, fake)], E.InvalidReceipt, [...watchOf(s), fake]);
  });

  it('refuses a receipt of another vault', async () => {
    const s = await scene();
    const other = await scene();
    await chain.must([await cancel(s)]);
    await expectRefused([withAccount(await refund(s), 1, other.receipt)], E.InvalidReceipt, [
      ...watchOf(s),
      ...watchOf(other),
    ]);
  });

  it('refuses to refund a receipt to another wallet, or its rent to anyone but its rent payer', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    await expectRefused([withAccount(await refund(s), 2, attacker.address)], E.WrongPayer, watchOf(s));
    await expectRefused([withAccount(await refund(s), 3, attacker.address)], E.WrongRentPayer, watchOf(s));
    await expectRefused([withAccount(await refund(s), 4, attacker.address)], E.WrongRentPayer, watchOf(s));
    const closeEntry = await getCloseEntryV2Instruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant.address,
      entryRentPayer: chain.platform.address, // the entrant paid it
      vaultRentPayer: chain.platform.address,
    });
    await expectRefused([closeEntry], E.WrongRentPayer, watchOf(s));
  });

  it('refuses a fake System program', async () => {
    const s = await scene();
    await expectRefused(
      [withAccount(await deposit(s), 4, chain.programId, AccountRole.READONLY)],
      E.NotSystemProgram,
      watchOf(s),
    );
  });

  it('refuses a read-only vault', async () => {
    const s = await scene();
    await expectRefused(
      [withAccount(await propose(s), 0, s.dare.vault, AccountRole.READONLY)],
      E.NotWritable,
      watchOf(s),
    );
  });
});

describe('escrow v2 attacks: seeds and bumps', () => {
  it("refuses a vault created with a wrong bump or at another dare's address", async () => {
    const input = await createInput();
    const create = await getCreateVaultV2Instruction(input);
    const data = new Uint8Array(create.data!);
    data[132] = (data[132]! + 255) % 256; // vault bump
    const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
    await expectRefused([withData(create, data)], E.WrongAddress, [input.creator.address, vault]);
    const elsewhere = (await findVaultAddress(chain.programId, new Uint8Array(32).fill(2))).address;
    await expectRefused([withAccount(create, 2, elsewhere)], E.WrongAddress, [input.creator.address, vault]);
  });

  it("refuses an entry at another entrant's address, and a receipt at a wrong bump", async () => {
    const s = await scene();
    const other = await chain.wallet(1n);
    const stolen = (await findEntryAddress(chain.programId, s.dare.vault, attacker.address)).address;
    await expectRefused(
      [withAccount(await enter(s, other), 3, stolen)],
      E.WrongAddress,
      [...watchOf(s), other.address],
      other,
    );
    const newPayer = await chain.wallet();
    const first = await deposit(s, newPayer);
    const data = new Uint8Array(first.data!);
    data[9] = (data[9]! + 1) % 256;
    await expectRefused([withData(first, data)], E.WrongAddress, [...watchOf(s), newPayer.address]);
  });
});

describe('escrow v2 attacks: amounts and instruction data', () => {
  it('refuses a proposal with more than five judge slots, and more accounts than any instruction takes', async () => {
    const s = await scene();
    const five = await propose(s, undefined, judges(0, 1, 2, 0, 1));
    const six = { ...five, accounts: [...five.accounts!, five.accounts![5]!] };
    await expectRefused([six], E.WrongAccountCount, watchOf(s));
    const eleven = { ...five, accounts: [...five.accounts!, ...five.accounts!.slice(3, 6)] };
    await expectRefused([eleven], E.WrongAccountCount, watchOf(s));
  });

  it('refuses a deposit that would overflow, or under 0.01 SOL', async () => {
    const s = await scene();
    await expectRefused([await deposit(s, s.payer, 2n ** 64n - 1n)], E.Overflow, watchOf(s));
    await expectRefused([await deposit(s, s.payer, 9_999_999n)], E.AmountTooSmall, watchOf(s));
  });

  it("refuses short and long instruction data for every instruction, an unknown one, and v1's settle", async () => {
    const s = await scene();
    const common = {
      programId: chain.programId,
      vault: s.dare.vault,
      vaultRentPayer: chain.platform.address,
    };
    const instructions: Instruction[] = [
      await getCreateVaultV2Instruction(await createInput({ creator: s.payer })),
      await deposit(s),
      await enter(s, s.payer),
      await cancel(s),
      await refund(s),
      await getCloseEntryV2Instruction({
        ...common,
        entrant: s.entrant.address,
        entryRentPayer: s.entrant.address,
      }),
      await getCloseReceiptV2Instruction({
        ...common,
        payer: s.payer.address,
        receiptRentPayer: chain.platform.address,
      }),
      await propose(s),
      await veto(s),
      await execute(s),
    ];
    for (const instruction of instructions) {
      const data = new Uint8Array(instruction.data!);
      const longer = new Uint8Array(data.length + 1);
      longer.set(data);
      await expectRefused([withData(instruction, longer)], E.InvalidDataLength, watchOf(s));
      if (data.length > 1)
        await expectRefused([withData(instruction, data.subarray(0, -1))], E.InvalidDataLength, watchOf(s));
    }
    const anyAccounts = instructions[3]!;
    await expectRefused([withData(anyAccounts, new Uint8Array())], E.InvalidDataLength, watchOf(s));
    await expectRefused([withData(anyAccounts, new Uint8Array([99]))], E.UnknownInstruction, watchOf(s));
    await expectRefused([withData(anyAccounts, new Uint8Array([3]))], E.UnknownInstruction, watchOf(s));
  });
});

describe('escrow v2 attacks: timing, refunds and payouts', () => {
  it('refuses a deposit and an entry at the deadline', async () => {
    const s = await scene();
    await chain.setTime(s.dare.deadline);
    await expectRefused([await deposit(s)], E.DeadlinePassed, watchOf(s));
    const late = await chain.wallet(1n);
    await expectRefused([await enter(s, late)], E.DeadlinePassed, [...watchOf(s), late.address], late);
  });

  it('refuses a refund before it is due, twice, or after the payout', async () => {
    const s = await scene();
    await chain.setTime(s.dare.refundAfter - 1n);
    await expectRefused([await refund(s)], E.RefundNotDue, watchOf(s));
    const t = await scene();
    await chain.must([await cancel(t)]);
    await chain.must([await refund(t)]);
    await expectRefused([await refund(t)], E.InvalidReceipt, watchOf(t));
    const u = await scene();
    await chain.setTime(await proposed(u));
    await chain.must([await execute(u)]);
    await chain.setTime(u.dare.refundAfter);
    await expectRefused([await refund(u)], E.VaultNotOpen, watchOf(u));
  });

  it('refuses to execute twice, to execute or propose after a cancel, and a veto with nothing proposed', async () => {
    const s = await scene();
    await chain.setTime(await proposed(s));
    await chain.must([await execute(s)]);
    await expectRefused([await execute(s)], E.VaultNotOpen, watchOf(s));
    await expectRefused([await veto(s)], E.NoProposal, watchOf(s), chain.guardian);
    const t = await scene();
    await chain.must([await cancel(t)]);
    await expectRefused([await propose(t)], E.VaultNotOpen, watchOf(t));
    await expectRefused([await execute(t)], E.VaultNotOpen, watchOf(t));
  });

  it('refuses to close receipts before the payout and entries while open', async () => {
    const s = await scene();
    const common = {
      programId: chain.programId,
      vault: s.dare.vault,
      vaultRentPayer: chain.platform.address,
    };
    await expectRefused(
      [
        await getCloseReceiptV2Instruction({
          ...common,
          payer: s.payer.address,
          receiptRentPayer: chain.platform.address,
        }),
      ],
      E.NotSettled,
      watchOf(s),
    );
    await expectRefused(
      [
        await getCloseEntryV2Instruction({
          ...common,
          entrant: s.entrant.address,
          entryRentPayer: s.entrant.address,
        }),
      ],
      E.StillOpen,
      watchOf(s),
    );
  });
});

describe('escrow v2 attacks: closing and reviving, pre-funded addresses', () => {
  it('refuses to refund a receipt closed and re-funded in the same transaction', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const revive = getTransferSolInstruction({ source: attacker, destination: s.receipt, amount: SOL });
    await expectRefused([await refund(s), revive, await refund(s)], E.InvalidReceipt, watchOf(s));
  });

  it('leaves nothing to revive: a vault recreated at a closed address starts empty, with its new terms', async () => {
    const s = await scene();
    await chain.must([await cancel(s)]);
    const closeEntry = await getCloseEntryV2Instruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: s.entrant.address,
      entryRentPayer: s.entrant.address,
      vaultRentPayer: chain.platform.address,
    });
    const recreate = await getCreateVaultV2Instruction(
      await createInput({
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
    await expectRefused([await propose(s, [s.entrant.address], [attacker])], E.InvalidEntry, watchOf(s));
  });

  it('creates a vault, receipt and entry at addresses that already hold lamports, the surplus going to the winner', async () => {
    await chain.setTime(START_TIME);
    const creator = await chain.wallet();
    const input = await createInput({ creator });
    const entrant = await chain.wallet(1n);
    const vault = (await findVaultAddress(chain.programId, input.dareId)).address;
    const receipt = (await findReceiptAddress(chain.programId, vault, input.creator.address)).address;
    const entry = (await findEntryAddress(chain.programId, vault, entrant.address)).address;
    const gift = chain.runtime.svm.minimumBalanceForRentExemption(0n);
    for (const address of [vault, receipt, entry]) await chain.gift(attacker, address, gift);
    await chain.must([await getCreateVaultV2Instruction(input)]);
    await chain.must(
      [await getEnterV2Instruction({ programId: chain.programId, vault, entrant, proofHash: proof })],
      entrant,
    );
    const rent = (await chain.vault(vault))!.rent;
    expect(await chain.balance(vault)).toBe(rent + SOL + gift);
    const dare = { ...input, creator, vault, stake: SOL, dareId: new Uint8Array(input.dareId) };
    const s: Scene = { dare, payer: creator, entrant, receipt, entry };
    await chain.setTime(await proposed(s));
    const before = await chain.balance(entrant.address);
    await chain.must([await execute(s)]);
    expect(await chain.balance(entrant.address)).toBe(before + SOL + gift);
  });

  it('refuses to create a vault that already exists', async () => {
    const s = await scene();
    const again = await getCreateVaultV2Instruction(
      await createInput({ creator: attacker, rentPayer: attacker, dareId: s.dare.dareId }),
    );
    await expectRefused([again], E.AlreadyExists, watchOf(s));
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
  await chain.must(
    [
      await getEnterV2Instruction({
        programId: chain.programId,
        vault: s.dare.vault,
        entrant,
        rentPayer: sponsor,
        proofHash: proof,
      }),
    ],
    sponsor,
  );
  const entry = (await findEntryAddress(chain.programId, s.dare.vault, entrant.address)).address;
  const recorded = (await chain.entry(entry))!;
  expect(recorded).toMatchObject({ entrant: entrant.address, rentPayer: sponsor.address });
  await chain.must([await cancel(s)]);
  const close = (rentPayer: Address) =>
    getCloseEntryV2Instruction({
      programId: chain.programId,
      vault: s.dare.vault,
      entrant: entrant.address,
      entryRentPayer: rentPayer,
      vaultRentPayer: chain.platform.address,
    });
  await expectRefused([await close(entrant.address)], E.WrongRentPayer, [
    ...watchOf(s),
    entry,
    sponsor.address,
  ]);
  const before = await chain.balance(sponsor.address);
  await chain.must([await close(sponsor.address)]);
  expect(await chain.balance(sponsor.address)).toBe(before + recorded.rent);
});
