/**
 * The attack tests of both program versions: the check that an attack is refused by the deployed
 * program with its own error code (for v2, also in the line the program logs) and no lamport and
 * no account byte changed, the attacker's fee aside; how an attack tampers with a valid
 * instruction or forges an account; and, written once, the attacks both versions refuse alike
 * with the same error codes (v2 kept v1's). Each version's test runs them on its own chain, next
 * to the attacks only it has.
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { expect } from 'vitest';
import { ESCROW_ERROR_CODE as E } from '#server/chain/escrow-program/errors';
import type { LiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { type EscrowChain, SOL } from '#test/support/chain/escrow-chain';

/** A dare with its creator's stake, one more payer and one entrant, and the accounts an attack must not touch. */
export interface Scene<D extends { vault: Address; creator: KeyPairSigner }> {
  dare: D;
  payer: KeyPairSigner;
  entrant: KeyPairSigner;
  receipt: Address;
  entry: Address;
  watch: Address[];
}

export async function sceneOf<D extends { vault: Address; creator: KeyPairSigner }>(
  chain: EscrowChain,
  dare: D,
  payer: KeyPairSigner,
  entrant: KeyPairSigner,
): Promise<Scene<D>> {
  const receipt = await chain.receiptAddress(dare.vault, payer.address);
  const entry = await chain.entryAddress(dare.vault, entrant.address);
  const wallets = [payer.address, entrant.address, dare.creator.address, chain.platform.address];
  return { dare, payer, entrant, receipt, entry, watch: [dare.vault, receipt, entry, ...wallets] };
}

/** How a program version names its errors, and whether every refusal logs its code (v2 does). */
export interface ProgramErrors {
  message: (code: number) => string;
  logged: boolean;
}

/**
 * Sends as `feePayer`; asserts the program's error `code` and that nothing else changed: the
 * instructions' accounts and `watch` stay byte for byte as they were, and the fee payer is down by
 * its fee only.
 */
export async function expectRefused(
  chain: EscrowChain,
  errors: ProgramErrors,
  attempt: { instructions: Instruction[]; code: number; watch: Address[]; feePayer: KeyPairSigner },
): Promise<void> {
  const { instructions, code, feePayer } = attempt;
  const accounts = new Set<Address>(attempt.watch);
  for (const instruction of instructions)
    for (const meta of instruction.accounts ?? []) accounts.add(meta.address);
  accounts.delete(feePayer.address);
  const snapshot = () =>
    Promise.all([...accounts].map(async (address) => [address, await chain.account(address)]));
  const before = await snapshot();
  const feePayerBefore = await chain.balance(feePayer.address);
  const feesBefore = chain.feesPaidBy(feePayer.address);
  const result = await chain.send(instructions, feePayer);
  expect(result.ok, 'the transaction should fail').toBe(false);
  if (!result.ok) {
    expect(result.code, `${result.error} (wanted ${errors.message(code)})`).toBe(code);
    if (errors.logged)
      expect(result.logs.join('\n'), JSON.stringify(instructions.map((i) => [...(i.data ?? [])]))).toContain(
        `Program log: 0xda7e, 0x${code.toString(16)}, 0x0, 0x0, 0x0`,
      );
  }
  expect(await snapshot()).toEqual(before);
  expect(await chain.balance(feePayer.address)).toBe(
    feePayerBefore - (chain.feesPaidBy(feePayer.address) - feesBefore),
  );
}

/** The same instruction with account `index` no longer signing (the signature is simply absent). */
export function withoutSigner(instruction: Instruction, index: number): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  const meta = accounts[index]!;
  accounts[index] = {
    address: meta.address,
    role: meta.role === AccountRole.WRITABLE_SIGNER ? AccountRole.WRITABLE : AccountRole.READONLY,
  };
  return { ...instruction, accounts };
}

export function withAccount(
  instruction: Instruction,
  index: number,
  address: Address,
  role = instruction.accounts![index]!.role,
): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  accounts[index] = { address, role: role & ~0b10 } as (typeof accounts)[number]; // a plain address cannot sign
  return { ...instruction, accounts };
}

export function withData(instruction: Instruction, data: Uint8Array): Instruction {
  return { ...instruction, data };
}

interface AttackDare {
  vault: Address;
  creator: KeyPairSigner;
  refundAfter: bigint;
}

/** A version's attack test: its chain, the attacker, its scene and its refusal check. */
export interface AttackSetup<D extends AttackDare = AttackDare> {
  chain: EscrowChain<LiteSvmRuntime>;
  attacker: KeyPairSigner;
  scene: () => Promise<Scene<D>>;
  expectRefused: (
    instructions: Instruction[],
    code: number,
    watch: Address[],
    feePayer?: KeyPairSigner,
  ) => Promise<void>;
}

/** A new address holding `data`, owned by another program than the escrow: a forgery. */
export async function forgedAccount(
  chain: EscrowChain<LiteSvmRuntime>,
  forgery: { data: Uint8Array; owner: Address; lamports: bigint },
): Promise<Address> {
  const address = (await chain.wallet(0n)).address;
  chain.runtime.svm.setAccount({
    address,
    lamports: lamports(forgery.lamports),
    programAddress: forgery.owner,
    executable: false,
    data: forgery.data,
    space: BigInt(forgery.data.length),
  });
  return address;
}

const refundOf = ({ chain }: AttackSetup, s: Scene<AttackDare>) =>
  chain.refundInstruction(s.dare.vault, s.payer.address);

/** A scene whose vault the moderator cancelled. */
export async function cancelledScene({ chain, scene }: AttackSetup): Promise<Scene<AttackDare>> {
  const s = await scene();
  await chain.must([chain.cancelInstruction(s.dare.vault)]);
  return s;
}

export async function receiptPassedAsVault(setup: AttackSetup): Promise<void> {
  const s = await setup.scene();
  await setup.expectRefused([withAccount(await refundOf(setup, s), 0, s.receipt)], E.InvalidVault, s.watch);
}

export async function fakeReceipt(setup: AttackSetup): Promise<void> {
  const { chain, attacker } = setup;
  const s = await cancelledScene(setup);
  const data = (await chain.data(s.receipt))!;
  new DataView(data.buffer, data.byteOffset).setBigUint64(104, 100n * SOL, true); // amount: far more than paid
  const fake = await forgedAccount(chain, { data, owner: attacker.address, lamports: SOL });
  const forged = withAccount(await refundOf(setup, s), 1, fake);
  await setup.expectRefused([forged], E.InvalidReceipt, [...s.watch, fake]);
}

export async function receiptOfAnotherVault(setup: AttackSetup): Promise<void> {
  const s = await setup.scene();
  const other = await setup.scene();
  await setup.chain.must([setup.chain.cancelInstruction(s.dare.vault)]);
  await setup.expectRefused([withAccount(await refundOf(setup, s), 1, other.receipt)], E.InvalidReceipt, [
    ...s.watch,
    ...other.watch,
  ]);
}

/** On a cancelled vault: a refund naming the attacker's wallet where the payer's belongs. */
export async function refundToAnotherWallet(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  const toAttacker = withAccount(await refundOf(setup, s), 2, setup.attacker.address);
  await setup.expectRefused([toAttacker], E.WrongPayer, s.watch);
}

/** On a cancelled vault: the receipt's, then the vault's rent sent to the attacker. */
export async function rentToAnotherPayer(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  for (const index of [3, 4]) {
    const toAttacker = withAccount(await refundOf(setup, s), index, setup.attacker.address);
    await setup.expectRefused([toAttacker], E.WrongRentPayer, s.watch);
  }
}

export async function fakeSystemProgram(setup: AttackSetup): Promise<void> {
  const { chain } = setup;
  const s = await setup.scene();
  const deposit = await chain.depositInstruction(s.dare.vault, s.payer, SOL);
  const notSystem = withAccount(deposit, 4, chain.programId, AccountRole.READONLY);
  await setup.expectRefused([notSystem], E.NotSystemProgram, s.watch);
}

/** `instruction` with the vault again at `index`, where another account belongs (a winner's wallet). */
export async function vaultTwice(
  setup: AttackSetup,
  s: Scene<AttackDare>,
  instruction: Instruction,
  index: number,
): Promise<void> {
  await setup.expectRefused([withAccount(instruction, index, s.dare.vault)], E.DuplicateAccount, s.watch);
}

/** `instruction` with the account at `index`, which it must be able to write, passed read-only. */
export async function readOnly(
  setup: AttackSetup,
  s: Scene<AttackDare>,
  instruction: Instruction,
  index: number,
): Promise<void> {
  const { address } = instruction.accounts![index]!;
  const readOnly = withAccount(instruction, index, address, AccountRole.READONLY);
  await setup.expectRefused([readOnly], E.NotWritable, s.watch);
}

/** A new payer's first deposit with its receipt's bump off by one. */
export async function receiptAtWrongBump(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  const newPayer = await setup.chain.wallet();
  const deposit = await setup.chain.depositInstruction(s.dare.vault, newPayer, SOL);
  const data = new Uint8Array(deposit.data!);
  data[9] = (data[9]! + 1) % 256;
  await setup.expectRefused([withData(deposit, data)], E.WrongAddress, [...s.watch, newPayer.address]);
}

export async function depositOverflow(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  const deposit = await setup.chain.depositInstruction(s.dare.vault, s.payer, 2n ** 64n - 1n);
  await setup.expectRefused([deposit], E.Overflow, s.watch);
}

export async function depositUnderMinimum(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  const deposit = await setup.chain.depositInstruction(s.dare.vault, s.payer, 9_999_999n);
  await setup.expectRefused([deposit], E.AmountTooSmall, s.watch);
}

/**
 * Every instruction with a byte more, and (when it has more than its tag) a byte less, refused for
 * its length; then `any` (one instruction) with no data, and with each unknown tag.
 */
export async function wrongDataLengths(
  setup: AttackSetup,
  s: Scene<AttackDare>,
  instructions: Instruction[],
  { any, unknownTags }: { any: Instruction; unknownTags: number[] },
): Promise<void> {
  for (const instruction of instructions) {
    const data = new Uint8Array(instruction.data!);
    const longer = new Uint8Array(data.length + 1);
    longer.set(data);
    await setup.expectRefused([withData(instruction, longer)], E.InvalidDataLength, s.watch);
    if (data.length > 1)
      await setup.expectRefused([withData(instruction, data.subarray(0, -1))], E.InvalidDataLength, s.watch);
  }
  await setup.expectRefused([withData(any, new Uint8Array())], E.InvalidDataLength, s.watch);
  for (const tag of unknownTags)
    await setup.expectRefused([withData(any, new Uint8Array([tag]))], E.UnknownInstruction, s.watch);
}

/** A refund a second before refund_after. */
export async function refundBeforeDue(setup: AttackSetup, s: Scene<AttackDare>): Promise<void> {
  await setup.chain.setTime(s.dare.refundAfter - 1n);
  await setup.expectRefused([await refundOf(setup, s)], E.RefundNotDue, s.watch);
}

/** A cancelled vault's receipt refunded, then refunded again. */
export async function refundTwice(setup: AttackSetup): Promise<void> {
  const s = await cancelledScene(setup);
  await setup.chain.must([await refundOf(setup, s)]);
  await setup.expectRefused([await refundOf(setup, s)], E.InvalidReceipt, s.watch);
}

export async function closesBeforeTheEnd(setup: AttackSetup): Promise<void> {
  const { chain } = setup;
  const s = await setup.scene();
  const closeReceipt = await chain.closeReceiptInstruction(s.dare.vault, s.payer.address);
  await setup.expectRefused([closeReceipt], E.NotSettled, s.watch);
  const closeEntry = await chain.closeEntryInstruction(s.dare.vault, s.entrant.address);
  await setup.expectRefused([closeEntry], E.StillOpen, s.watch);
}

export async function receiptRevivedInOneTransaction(setup: AttackSetup): Promise<void> {
  const s = await cancelledScene(setup);
  const revive = getTransferSolInstruction({ source: setup.attacker, destination: s.receipt, amount: SOL });
  const refund = await refundOf(setup, s);
  await setup.expectRefused([refund, revive, refund], E.InvalidReceipt, s.watch);
}
