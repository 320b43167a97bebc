/**
 * The attacks both program versions refuse alike, with the same error codes (v2 kept v1's), written
 * once: each version's attack test runs them on its own chain, next to the attacks only it has.
 */
import { AccountRole, type Address, type Instruction, type KeyPairSigner, lamports } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { ESCROW_ERROR_CODE as E } from '#server/chain/escrow-program/errors';
import type { LiteSvmRuntime } from '#server/chain/escrow-program/runtimes/litesvm';
import { type Scene, withAccount, withData } from '#test/support/chain/attacks';
import { type EscrowChain, SOL } from '#test/support/chain/escrow-chain';

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
