/**
 * The escrow test chain with program v2 deployed: what v2 does its own way. A dare's cast adds
 * three judges and a guardian (each with 1 SOL: they sign alone and pay their own fees); the
 * moderator key is the canceller; an entrant lends its own entry's rent. For the program's tests
 * and its benchmark; not used by the server.
 */
import { type Address, generateKeyPairSigner, type Instruction, type KeyPairSigner } from '@solana/kit';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import type { ProgramRuntime } from '#server/chain/escrow-program/runtimes/runtime';
import {
  type CreateVaultV2Input,
  getCancelV2Instruction,
  getCreateVaultV2Instruction,
  getEnterV2Instruction,
  getExecuteInstruction,
  getProposeInstruction,
  getVetoInstruction,
  type VaultTerms,
} from '#server/chain/escrow-program/v2/instructions';
import {
  type DareKind,
  decodeEntryV2,
  decodeVaultV2,
  type EntryV2,
  type VaultV2,
} from '#server/chain/escrow-program/v2/layout';
import { type PlannedTransaction, planRecordClosesV2 } from '#server/chain/escrow-program/v2/payout-plan';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { DAY, type DareKeys, deployForTests, EscrowChain, SOL } from '#test/support/chain/escrow-chain';

export interface TestDareV2 extends VaultTerms {
  dareId: Uint8Array;
  vault: Address;
  creator: KeyPairSigner;
  stake: bigint;
}

export class EscrowV2Chain<R extends ProgramRuntime = ProgramRuntime> extends EscrowChain<R> {
  private constructor(
    runtime: R,
    programId: Address,
    keys: DareKeys,
    readonly judges: KeyPairSigner[],
    readonly guardian: KeyPairSigner,
  ) {
    super(runtime, programId, keys);
  }

  static async start<R extends ProgramRuntime>(
    runtime: R,
    bytes = readEscrowProgramV2(),
  ): Promise<EscrowV2Chain<R>> {
    const { programId, keys } = await deployForTests(runtime, bytes);
    const [judges, guardian] = [
      [await generateKeyPairSigner(), await generateKeyPairSigner(), await generateKeyPairSigner()],
      await generateKeyPairSigner(),
    ];
    for (const key of [guardian, ...judges]) await runtime.fund(key.address, SOL);
    return new EscrowV2Chain(runtime, programId, keys, judges, guardian);
  }

  /** The moderator key: in v2 it may only cancel. */
  get canceller(): KeyPairSigner {
    return this.moderator;
  }

  vault(address: Address): Promise<VaultV2 | null> {
    return this.ours(address, decodeVaultV2);
  }

  entry(address: Address): Promise<EntryV2 | null> {
    return this.ours(address, decodeEntryV2);
  }

  protected entryRentPayerOf(entrant: Address): Address {
    return entrant;
  }

  /** The terms a test dare gets unless told otherwise: deadline in a day, refunds 7 days later, 2 of 3 judges, a 24 h window. */
  async terms(overrides: Partial<VaultTerms> = {}): Promise<VaultTerms> {
    const deadline = overrides.deadline ?? (await this.now()) + DAY;
    return {
      kind: 'community',
      deadline,
      refundAfter: deadline + 7n * DAY,
      judges: this.judges.map((j) => j.address),
      threshold: 2,
      guardian: this.guardian.address,
      canceller: this.canceller.address,
      payoutWindow: DAY,
      ...overrides,
    };
  }

  /** create_vault's input: `terms`, a new creator with 10 SOL, a new dare id, 1 SOL, the platform lending the rent. */
  async createInput(overrides: Partial<CreateVaultV2Input> = {}): Promise<CreateVaultV2Input> {
    return {
      ...(await this.terms()),
      programId: this.programId,
      creator: overrides.creator ?? (await this.wallet()),
      rentPayer: this.platform,
      dareId: crypto.getRandomValues(new Uint8Array(32)),
      amount: SOL,
      ...overrides,
    };
  }

  /** Creates a vault with `stake` (default 0.1 SOL) from a new (or given) creator; the platform pays its rent. */
  async createDare(
    options: Partial<VaultTerms> & { stake?: bigint; creator?: KeyPairSigner } = {},
  ): Promise<TestDareV2> {
    const { stake = SOL / 10n, creator = await this.wallet(), ...overrides } = options;
    const terms = await this.terms(overrides);
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    await this.must([
      await getCreateVaultV2Instruction(await this.createInput({ ...terms, creator, dareId, amount: stake })),
    ]);
    const vault = (await findVaultAddress(this.programId, dareId)).address;
    return { ...terms, dareId, vault, creator, stake };
  }

  /** v2's enter: the entrant signs with its proof's hash; `rentPayer` (default the entrant) lends the rent. */
  enterInstruction(
    vault: Address,
    entrant: KeyPairSigner,
    proofHash: Uint8Array,
    rentPayer?: KeyPairSigner,
  ): Promise<Instruction> {
    return getEnterV2Instruction({
      programId: this.programId,
      vault,
      entrant,
      proofHash,
      ...(rentPayer ? { rentPayer } : {}),
    });
  }

  /** propose, signed by `judges` (default the first two: the threshold). */
  proposeInstruction(
    vault: Address,
    winners: Address[],
    judges: (KeyPairSigner | Address)[] = this.judges.slice(0, 2),
  ): Promise<Instruction> {
    return getProposeInstruction({ programId: this.programId, vault, winners, judges });
  }

  executeInstruction(vault: Address, winners: Address[]): Instruction {
    return getExecuteInstruction({ programId: this.programId, vault, winners });
  }

  vetoInstruction(vault: Address, guardian: KeyPairSigner | Address = this.guardian): Instruction {
    return getVetoInstruction({ programId: this.programId, vault, guardian });
  }

  cancelInstruction(vault: Address, canceller: KeyPairSigner = this.canceller): Instruction {
    return getCancelV2Instruction({ programId: this.programId, vault, canceller });
  }

  /**
   * Each record close in a transaction of its own, as the client sends them: receipts whose rent
   * the platform lent, entries whose entrants lent theirs; with `refund`, refunds instead of
   * close_receipt.
   */
  closePlan(
    vault: Address,
    payers: Address[],
    entrants: Address[],
    { refund = false } = {},
  ): Promise<PlannedTransaction[]> {
    return planRecordClosesV2({
      ...this.rentBack(vault),
      receipts: payers.map((payer) => ({ payer, rentPayer: this.platform.address })),
      entries: entrants.map((entrant) => ({ entrant, rentPayer: entrant })),
      refund,
    });
  }
}

export type { DareKind };
