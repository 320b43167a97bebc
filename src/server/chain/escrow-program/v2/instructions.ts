/**
 * Builders of escrow v2's instructions (account order and data exactly as
 * program/src/darepool_escrow_v2.c reads them; docs/program.md lists them). PDAs use the same
 * seeds as version 1 under v2's program id. Results are plain kit `Instruction`s.
 */
import {
  AccountRole,
  type Address,
  getAddressEncoder,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from '@solana/kit';
import { encodeProposeData, PROPOSE_TAG } from '#contract/propose-layout';
import { SYSTEM_PROGRAM_ADDRESS } from '#server/chain/escrow-program/loader-v3';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from '#server/chain/escrow-program/pda';
import { DARE_KIND, type DareKind, MAX_JUDGES } from './layout';

export const INSTRUCTION_V2 = {
  createVault: 0,
  deposit: 1,
  enter: 2,
  cancel: 4,
  refund: 5,
  closeEntry: 6,
  closeReceipt: 7,
  propose: PROPOSE_TAG,
  veto: 9,
  execute: 10,
} as const;

type Meta = Instruction['accounts'] extends readonly (infer M)[] | undefined ? M : never;

function signer(account: TransactionSigner, writable: boolean): Meta {
  return {
    address: account.address,
    role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
    signer: account,
  } as Meta;
}

/** A signer given as an address only: its signature is added later (a judge's wallet). */
function signerOrAddress(account: TransactionSigner | Address, writable: boolean): Meta {
  if (typeof account !== 'string') return signer(account, writable);
  return { address: account, role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER };
}

function writableOrSigner(account: TransactionSigner | Address): Meta {
  return typeof account === 'string' ? writable(account) : signer(account, true);
}

function writable(address: Address): Meta {
  return { address, role: AccountRole.WRITABLE };
}

function readonly(address: Address): Meta {
  return { address, role: AccountRole.READONLY };
}

const SYSTEM = readonly(SYSTEM_PROGRAM_ADDRESS);
const addressBytes = getAddressEncoder();

class DataWriter {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
  u8(value: number): this {
    this.view.setUint8(this.at, value);
    this.at += 1;
    return this;
  }
  u64(value: bigint): this {
    this.view.setBigUint64(this.at, value, true);
    this.at += 8;
    return this;
  }
  i64(value: bigint): this {
    this.view.setBigInt64(this.at, value, true);
    this.at += 8;
    return this;
  }
  raw(value: ReadonlyUint8Array): this {
    this.bytes.set(value, this.at);
    this.at += value.length;
    return this;
  }
  done(): Uint8Array {
    if (this.at !== this.bytes.length) throw new Error('instruction data size mismatch');
    return this.bytes;
  }
}

function tagOnly(tag: number): Uint8Array {
  return new Uint8Array([tag]);
}

/** The terms a vault keeps for life (docs/program.md lists their bounds). */
export interface VaultTerms {
  kind: DareKind;
  deadline: bigint;
  refundAfter: bigint;
  /** 1 to 5 distinct wallets; `threshold` of them must sign a proposal. */
  judges: readonly Address[];
  threshold: number;
  guardian: Address;
  /** May only cancel: DarePool's moderator key. */
  canceller: Address;
  /** Seconds between a proposal and its execution: 1 hour to 7 days. */
  payoutWindow: bigint;
}

export interface CreateVaultV2Input extends VaultTerms {
  programId: Address;
  creator: TransactionSigner;
  rentPayer: TransactionSigner;
  dareId: ReadonlyUint8Array;
  amount: bigint;
}

export async function getCreateVaultV2Instruction(input: CreateVaultV2Input): Promise<Instruction> {
  // The program checks the terms too; the length must fit the judges given, whatever their number.
  const judges = input.judges.length;
  const vault = await findVaultAddress(input.programId, input.dareId);
  const receipt = await findReceiptAddress(input.programId, vault.address, input.creator.address);
  const data = new DataWriter(1 + 133 + 32 * judges)
    .u8(INSTRUCTION_V2.createVault)
    .raw(input.dareId)
    .raw(addressBytes.encode(input.canceller))
    .raw(addressBytes.encode(input.guardian))
    .i64(input.deadline)
    .i64(input.refundAfter)
    .i64(input.payoutWindow)
    .u64(input.amount)
    .u8(DARE_KIND[input.kind])
    .u8(input.threshold)
    .u8(judges)
    .u8(vault.bump)
    .u8(receipt.bump);
  for (const judge of input.judges) data.raw(addressBytes.encode(judge));
  return {
    programAddress: input.programId,
    accounts: [
      signer(input.creator, true),
      signer(input.rentPayer, true),
      writable(vault.address),
      writable(receipt.address),
      SYSTEM,
    ],
    data: data.done(),
  };
}

export async function getDepositV2Instruction(input: {
  programId: Address;
  vault: Address;
  payer: TransactionSigner;
  /** Must sign when this deposit creates the payer's receipt (the first one). */
  rentPayer: TransactionSigner | Address;
  amount: bigint;
}): Promise<Instruction> {
  const receipt = await findReceiptAddress(input.programId, input.vault, input.payer.address);
  return {
    programAddress: input.programId,
    accounts: [
      signer(input.payer, true),
      writableOrSigner(input.rentPayer),
      writable(input.vault),
      writable(receipt.address),
      SYSTEM,
    ],
    data: new DataWriter(10).u8(INSTRUCTION_V2.deposit).u64(input.amount).u8(receipt.bump).done(),
  };
}

/**
 * The entrant signs and, unless another `rentPayer` is given, pays the entry's rent, which comes
 * back to it when the entry closes. `proofHash`: 32 bytes fixing the proof being judged.
 */
export async function getEnterV2Instruction(input: {
  programId: Address;
  vault: Address;
  entrant: TransactionSigner;
  proofHash: ReadonlyUint8Array;
  rentPayer?: TransactionSigner;
}): Promise<Instruction> {
  if (input.proofHash.length !== 32) throw new Error('A proof hash is 32 bytes');
  const entry = await findEntryAddress(input.programId, input.vault, input.entrant.address);
  const rentPayer = input.rentPayer ?? input.entrant;
  return {
    programAddress: input.programId,
    accounts: [
      signer(input.entrant, rentPayer.address === input.entrant.address),
      signer(rentPayer, true),
      writable(input.vault),
      writable(entry.address),
      SYSTEM,
    ],
    data: new DataWriter(34).u8(INSTRUCTION_V2.enter).u8(entry.bump).raw(input.proofHash).done(),
  };
}

/**
 * Names the winners (one for community, two for major: first 70%, second 30%; the same wallet may
 * be both). `judges` sign: a `TransactionSigner` signs when the transaction is signed, an
 * `Address` leaves its signature to be added later (a judge's own wallet; see propose-transaction.ts).
 * `winnerEntries`, when given, are the winners' entry accounts as found on chain.
 */
export async function getProposeInstruction(input: {
  programId: Address;
  vault: Address;
  winners: readonly Address[];
  judges: readonly (TransactionSigner | Address)[];
  winnerEntries?: readonly Address[];
}): Promise<Instruction> {
  if (input.judges.length < 1 || input.judges.length > MAX_JUDGES) throw new Error('1 to 5 judges sign');
  const accounts: Meta[] = [writable(input.vault)];
  for (const [index, winner] of input.winners.entries()) {
    const entry =
      input.winnerEntries?.[index] ?? (await findEntryAddress(input.programId, input.vault, winner)).address;
    accounts.push(readonly(winner), readonly(entry));
  }
  for (const judge of input.judges) accounts.push(signerOrAddress(judge, false));
  return {
    programAddress: input.programId,
    accounts,
    data: encodeProposeData(input.winners.length),
  };
}

export function getVetoInstruction(input: {
  programId: Address;
  vault: Address;
  guardian: TransactionSigner | Address;
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [signerOrAddress(input.guardian, false), writable(input.vault)],
    data: tagOnly(INSTRUCTION_V2.veto),
  };
}

/**
 * Anyone, once the window has passed: `winners` exactly as proposed (the vault's `proposal`).
 * Send it alone: never in a transaction with closes of records a stranger paid for (one
 * unpayable record must not hold up the payout; see payout-plan.ts).
 */
export function getExecuteInstruction(input: {
  programId: Address;
  vault: Address;
  winners: readonly Address[];
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [writable(input.vault), ...input.winners.map(writable)],
    data: tagOnly(INSTRUCTION_V2.execute),
  };
}

export function getCancelV2Instruction(input: {
  programId: Address;
  vault: Address;
  canceller: TransactionSigner;
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [signer(input.canceller, false), writable(input.vault)],
    data: tagOnly(INSTRUCTION_V2.cancel),
  };
}

/**
 * refund, close_entry and close_receipt keep v1's tags, accounts and data in v2 (docs/program.md),
 * so v1's builders serve both programs: only `programId` tells them apart.
 */
export {
  getCloseEntryInstruction as getCloseEntryV2Instruction,
  getCloseReceiptInstruction as getCloseReceiptV2Instruction,
  getRefundInstruction as getRefundV2Instruction,
} from '#server/chain/escrow-program/instructions';
