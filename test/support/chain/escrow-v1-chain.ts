/**
 * The escrow test chain with program v1 deployed: what v1 does its own way. The moderator settles
 * and cancels; the platform lends every vault's, receipt's and entry's rent. For the program's
 * tests and its benchmark; not used by the server.
 */
import type { Address, Instruction, KeyPairSigner } from '@solana/kit';
import { getCancelInstruction } from '#server/chain/escrow-program/instructions';
import {
  type DareKind,
  decodeEntry,
  decodeVault,
  type Entry,
  type Vault,
} from '#server/chain/escrow-program/layout';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import type { ProgramRuntime } from '#server/chain/escrow-program/runtimes/runtime';
import { DAY, deployForTests, EscrowChain, HOUR, SOL } from '#test/support/chain/escrow-chain';
import {
  type CreateVaultInput,
  getCloseInstructions,
  getCreateVaultInstruction,
  getEnterInstruction,
  getSettleAndCloseInstructions,
  getSettleInstruction,
} from '#test/support/chain/v1-vaults';

/** A dare on the test chain: its id, vault and the creator who staked. */
export interface TestDare {
  dareId: Uint8Array;
  vault: Address;
  creator: KeyPairSigner;
  stake: bigint;
  deadline: bigint;
  refundAfter: bigint;
}

export class EscrowV1Chain<R extends ProgramRuntime = ProgramRuntime> extends EscrowChain<R> {
  static async start<R extends ProgramRuntime>(
    runtime: R,
    bytes = readEscrowProgram(),
  ): Promise<EscrowV1Chain<R>> {
    const { programId, keys } = await deployForTests(runtime, bytes);
    return new EscrowV1Chain(runtime, programId, keys);
  }

  vault(address: Address): Promise<Vault | null> {
    return this.ours(address, decodeVault);
  }

  entry(address: Address): Promise<Entry | null> {
    return this.ours(address, decodeEntry);
  }

  protected entryRentPayerOf(): Address {
    return this.platform.address;
  }

  /**
   * create_vault's input unless told otherwise: a new creator with 10 SOL, the platform lending
   * the rent, a new dare id, a stake of 0.1 SOL, the deadline in an hour and refunds a day later.
   */
  async createInput(overrides: Partial<CreateVaultInput> = {}): Promise<CreateVaultInput> {
    const deadline = overrides.deadline ?? (await this.now()) + HOUR;
    return {
      programId: this.programId,
      creator: overrides.creator ?? (await this.wallet()),
      rentPayer: this.platform,
      dareId: crypto.getRandomValues(new Uint8Array(32)),
      moderator: this.moderator.address,
      deadline,
      refundAfter: deadline + DAY,
      amount: SOL / 10n,
      kind: 'community',
      ...overrides,
    };
  }

  /** Creates a vault with `stake` (default 0.1 SOL) from a new (or given) creator. */
  async createDare(
    options: {
      kind?: DareKind;
      stake?: bigint;
      creator?: KeyPairSigner;
      deadline?: bigint;
      refundAfter?: bigint;
    } = {},
  ): Promise<TestDare> {
    const { stake = SOL / 10n, creator = await this.wallet(), ...terms } = options;
    const input = await this.createInput({ ...terms, creator, amount: stake });
    await this.must([await getCreateVaultInstruction(input)]);
    const vault = (await findVaultAddress(this.programId, input.dareId)).address;
    const { deadline, refundAfter } = input;
    return { dareId: new Uint8Array(input.dareId), vault, creator, stake, deadline, refundAfter };
  }

  /** v1's enter: the entrant signs, `rentPayer` (default the platform) lends the entry's rent. */
  enterInstruction(
    vault: Address,
    entrant: KeyPairSigner,
    rentPayer: KeyPairSigner = this.platform,
  ): Promise<Instruction> {
    return getEnterInstruction({ programId: this.programId, vault, entrant, rentPayer });
  }

  settleInstruction(
    vault: Address,
    winners: readonly Address[],
    moderator: KeyPairSigner = this.moderator,
  ): Promise<Instruction> {
    return getSettleInstruction({ programId: this.programId, vault, moderator, winners });
  }

  cancelInstruction(vault: Address, moderator: KeyPairSigner = this.moderator): Instruction {
    return getCancelInstruction({ programId: this.programId, vault, moderator });
  }

  /**
   * Closes the records of these payers and entrants, the platform having lent every rent: after a
   * payout close_receipt and close_entry; with `refund`, every entry, then a refund per receipt.
   */
  closeInstructions(
    vault: Address,
    payers: readonly Address[],
    entrants: readonly Address[],
    { refund = false } = {},
  ): Promise<Instruction[]> {
    return getCloseInstructions({ ...this.rentBack(vault), ...this.records(payers, entrants), refund });
  }

  /** settle, then every record's close, in one transaction. */
  settleAndCloseInstructions(
    vault: Address,
    winners: readonly Address[],
    payers: readonly Address[],
    entrants: readonly Address[],
  ): Promise<Instruction[]> {
    return getSettleAndCloseInstructions({
      ...this.rentBack(vault),
      ...this.records(payers, entrants),
      moderator: this.moderator,
      winners,
    });
  }

  private records(payers: readonly Address[], entrants: readonly Address[]) {
    const rentPayer = this.platform.address;
    return {
      receipts: payers.map((payer) => ({ payer, rentPayer })),
      entries: entrants.map((entrant) => ({ entrant, rentPayer })),
    };
  }
}
