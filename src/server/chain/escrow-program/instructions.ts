/**
 * Builders of the escrow program's instructions (account order and data exactly as
 * program/src/darepool_escrow.c reads them; docs/program.md lists them). PDAs are derived here;
 * the results are plain kit `Instruction`s, so tests can also tamper with them.
 */
import {
  AccountRole,
  type Address,
  getAddressEncoder,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from '@solana/kit';
import { DARE_KIND, type DareKind } from './layout';
import { SYSTEM_PROGRAM_ADDRESS } from './loader-v3';
import { findEntryAddress, findReceiptAddress, findVaultAddress } from './pda';

export const INSTRUCTION = {
  createVault: 0,
  deposit: 1,
  enter: 2,
  settle: 3,
  cancel: 4,
  refund: 5,
  closeEntry: 6,
  closeReceipt: 7,
} as const;

type Meta = Instruction['accounts'] extends readonly (infer M)[] | undefined ? M : never;

function signer(account: TransactionSigner, writable: boolean): Meta {
  return {
    address: account.address,
    role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
    signer: account,
  } as Meta;
}

function signerOrWritable(account: TransactionSigner | Address): Meta {
  return typeof account === 'string' ? writable(account) : signer(account, true);
}

function writable(address: Address): Meta {
  return { address, role: AccountRole.WRITABLE };
}

function readonly(address: Address): Meta {
  return { address, role: AccountRole.READONLY };
}

const SYSTEM = readonly(SYSTEM_PROGRAM_ADDRESS);

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

export interface CreateVaultInput {
  programId: Address;
  /** Signs and pays the stake. */
  creator: TransactionSigner;
  /** Signs and pays the rent of the vault and the creator's receipt; gets it back at the end. */
  rentPayer: TransactionSigner;
  /** 32 bytes the creator chooses once per dare: the vault's seed. */
  dareId: ReadonlyUint8Array;
  moderator: Address;
  deadline: bigint;
  refundAfter: bigint;
  amount: bigint;
  kind: DareKind;
}

export async function getCreateVaultInstruction(input: CreateVaultInput): Promise<Instruction> {
  const vault = await findVaultAddress(input.programId, input.dareId);
  const receipt = await findReceiptAddress(input.programId, vault.address, input.creator.address);
  return {
    programAddress: input.programId,
    accounts: [
      signer(input.creator, true),
      signer(input.rentPayer, true),
      writable(vault.address),
      writable(receipt.address),
      SYSTEM,
    ],
    data: new DataWriter(92)
      .u8(INSTRUCTION.createVault)
      .raw(input.dareId)
      .raw(getAddressEncoder().encode(input.moderator))
      .i64(input.deadline)
      .i64(input.refundAfter)
      .u64(input.amount)
      .u8(DARE_KIND[input.kind])
      .u8(vault.bump)
      .u8(receipt.bump)
      .done(),
  };
}

export async function getDepositInstruction(input: {
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
      signerOrWritable(input.rentPayer),
      writable(input.vault),
      writable(receipt.address),
      SYSTEM,
    ],
    data: new DataWriter(10).u8(INSTRUCTION.deposit).u64(input.amount).u8(receipt.bump).done(),
  };
}

export async function getEnterInstruction(input: {
  programId: Address;
  vault: Address;
  entrant: TransactionSigner;
  rentPayer: TransactionSigner;
}): Promise<Instruction> {
  const entry = await findEntryAddress(input.programId, input.vault, input.entrant.address);
  return {
    programAddress: input.programId,
    accounts: [
      signer(input.entrant, false),
      signer(input.rentPayer, true),
      writable(input.vault),
      writable(entry.address),
      SYSTEM,
    ],
    data: new Uint8Array([INSTRUCTION.enter, entry.bump]),
  };
}

/**
 * One winner for a community dare; two (first gets 70%, second 30%) for a major dare.
 * `winnerEntries`, when given, are the winners' entry accounts as found on chain (see getRefundInstruction).
 */
export async function getSettleInstruction(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
  winners: readonly Address[];
  winnerEntries?: readonly Address[];
}): Promise<Instruction> {
  const accounts: Meta[] = [signer(input.moderator, false), writable(input.vault)];
  for (const [index, winner] of input.winners.entries()) {
    const entry =
      input.winnerEntries?.[index] ?? (await findEntryAddress(input.programId, input.vault, winner)).address;
    accounts.push(writable(winner), readonly(entry));
  }
  return { programAddress: input.programId, accounts, data: tagOnly(INSTRUCTION.settle) };
}

export function getCancelInstruction(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
}): Instruction {
  return {
    programAddress: input.programId,
    accounts: [signer(input.moderator, false), writable(input.vault)],
    data: tagOnly(INSTRUCTION.cancel),
  };
}

/**
 * Permissionless: whoever sends it only pays the fee. `receipt`, when given, is the receipt's
 * address as found on chain: the program accepts a receipt at any valid bump, so one made by
 * another client need not sit at the canonical address this would derive.
 */
export async function getRefundInstruction(input: {
  programId: Address;
  vault: Address;
  payer: Address;
  receiptRentPayer: Address;
  vaultRentPayer: Address;
  receipt?: Address;
}): Promise<Instruction> {
  const receipt =
    input.receipt ?? (await findReceiptAddress(input.programId, input.vault, input.payer)).address;
  return {
    programAddress: input.programId,
    accounts: [
      writable(input.vault),
      writable(receipt),
      writable(input.payer),
      writable(input.receiptRentPayer),
      writable(input.vaultRentPayer),
    ],
    data: tagOnly(INSTRUCTION.refund),
  };
}

/** `entry`, when given, is the entry's address as found on chain (see getRefundInstruction). */
export async function getCloseEntryInstruction(input: {
  programId: Address;
  vault: Address;
  entrant: Address;
  entryRentPayer: Address;
  vaultRentPayer: Address;
  entry?: Address;
}): Promise<Instruction> {
  const entry = input.entry ?? (await findEntryAddress(input.programId, input.vault, input.entrant)).address;
  return {
    programAddress: input.programId,
    accounts: [
      writable(input.vault),
      writable(entry),
      writable(input.entryRentPayer),
      writable(input.vaultRentPayer),
    ],
    data: tagOnly(INSTRUCTION.closeEntry),
  };
}

/** `receipt`, when given, is the receipt's address as found on chain (see getRefundInstruction). */
export async function getCloseReceiptInstruction(input: {
  programId: Address;
  vault: Address;
  payer: Address;
  receiptRentPayer: Address;
  vaultRentPayer: Address;
  receipt?: Address;
}): Promise<Instruction> {
  const receipt =
    input.receipt ?? (await findReceiptAddress(input.programId, input.vault, input.payer)).address;
  return {
    programAddress: input.programId,
    accounts: [
      writable(input.vault),
      writable(receipt),
      writable(input.receiptRentPayer),
      writable(input.vaultRentPayer),
    ],
    data: tagOnly(INSTRUCTION.closeReceipt),
  };
}

/**
 * A whole payout in one transaction: `settle`, then `close_receipt` for every receipt and
 * `close_entry` for every entry, so the vault closes and all rent goes back in the same step.
 * A dare with too many records for one transaction sends the rest with `getCloseInstructions`.
 */
export async function getSettleAndCloseInstructions(input: {
  programId: Address;
  vault: Address;
  moderator: TransactionSigner;
  winners: readonly Address[];
  vaultRentPayer: Address;
  receipts: readonly { payer: Address; rentPayer: Address }[];
  entries: readonly { entrant: Address; rentPayer: Address }[];
}): Promise<Instruction[]> {
  return [await getSettleInstruction(input), ...(await getCloseInstructions({ ...input, refund: false }))];
}

/**
 * Closes records of a vault that has ended: after a payout (`refund: false`) close_receipt and
 * close_entry; after cancel or refund-after (`refund: true`) every entry, then a refund per receipt
 * (the last one closes the vault). Anyone may send these.
 */
export async function getCloseInstructions(input: {
  programId: Address;
  vault: Address;
  vaultRentPayer: Address;
  receipts: readonly { payer: Address; rentPayer: Address }[];
  entries: readonly { entrant: Address; rentPayer: Address }[];
  refund: boolean;
}): Promise<Instruction[]> {
  const common = { programId: input.programId, vault: input.vault, vaultRentPayer: input.vaultRentPayer };
  const entries = await Promise.all(
    input.entries.map((e) =>
      getCloseEntryInstruction({ ...common, entrant: e.entrant, entryRentPayer: e.rentPayer }),
    ),
  );
  const receipts = await Promise.all(
    input.receipts.map((r) =>
      input.refund
        ? getRefundInstruction({ ...common, payer: r.payer, receiptRentPayer: r.rentPayer })
        : getCloseReceiptInstruction({ ...common, payer: r.payer, receiptRentPayer: r.rentPayer }),
    ),
  );
  return input.refund ? [...entries, ...receipts] : [...receipts, ...entries];
}
