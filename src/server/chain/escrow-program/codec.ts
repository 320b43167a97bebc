/**
 * The one core both escrow program versions' clients are built on: the byte layouts of their
 * instruction data and accounts as @solana/kit codecs (one definition encodes and decodes), and
 * the account metas every builder lists. program/src/darepool_escrow.c and darepool_escrow_v2.c
 * read these bytes; docs/program.md lists them; instruction-bytes.test.ts pins every instruction.
 * v2 keeps v1's receipt, deposit, refund and closes as they are, and extends its vault and entry.
 */
import {
  AccountRole,
  type Address,
  fixCodecSize,
  getAddressCodec,
  getArrayCodec,
  getBytesCodec,
  getI64Codec,
  getStructCodec,
  getU8Codec,
  getU32Codec,
  getU64Codec,
  type Instruction,
  type ReadonlyUint8Array,
  type TransactionSigner,
} from '@solana/kit';
import { SYSTEM_PROGRAM_ADDRESS } from './loader-v3';
import { findReceiptAddress, findVaultAddress } from './pda';

const u8 = getU8Codec();
const u32 = getU32Codec();
/** Unix seconds and windows: signed, as the C program's int64_t. */
const i64 = getI64Codec();
/** Lamports. */
const u64 = getU64Codec();
const key = getAddressCodec();
/** A dare id or a proof's fingerprint. */
const bytes32 = fixCodecSize(getBytesCodec(), 32);

// ---- Accounts ----

/** The fields every vault begins with, in both versions (v2 calls `moderator` its canceller). */
const VAULT_HEAD = [
  ['accountType', u8],
  ['bump', u8],
  ['kind', u8],
  ['status', u8],
  ['receiptCount', u32],
  ['dareId', bytes32],
  ['moderator', key],
  ['rentPayer', key],
  ['deadline', i64],
  ['refundAfter', i64],
  ['total', u64],
  ['rent', u64],
  ['entryCount', u32],
] as const;

/** A receipt or an entry begins with its type, bump and vault. */
const RECORD_HEAD = [
  ['accountType', u8],
  ['bump', u8],
  ['reserved', fixCodecSize(getBytesCodec(), 6)],
  ['vault', key],
] as const;

const ENTRY_FIELDS = [...RECORD_HEAD, ['entrant', key], ['rentPayer', key], ['rent', u64]] as const;

export const vaultV1Codec = getStructCodec([...VAULT_HEAD, ['reserved', u32]]);

export const vaultV2Codec = getStructCodec([
  ...VAULT_HEAD,
  ['judgeCount', u8],
  ['threshold', u8],
  ['winnerCount', u8],
  ['reserved', u8],
  ['payoutWindow', i64],
  ['executesAt', i64],
  ['guardian', key],
  ['judges', getArrayCodec(key, { size: 5 })],
  ['winners', getArrayCodec(key, { size: 2 })],
  ['vetoCount', u32],
  ['reserved2', u32],
]);

/** Both versions' receipts. */
export const receiptCodec = getStructCodec([
  ...RECORD_HEAD,
  ['payer', key],
  ['rentPayer', key],
  ['amount', u64],
  ['rent', u64],
]);

export const entryV1Codec = getStructCodec(ENTRY_FIELDS);

/** v1's entry and the proof's fingerprint. */
export const entryV2Codec = getStructCodec([...ENTRY_FIELDS, ['proofHash', bytes32]]);

export const ACCOUNT_TYPE = { vault: 1, receipt: 2, entry: 3 } as const;

/** The account's fields when `data` has its size and type tag; null otherwise. */
export function decodeAccount<T extends { accountType: number }>(
  codec: { decode(data: ReadonlyUint8Array): T; fixedSize: number },
  data: ReadonlyUint8Array,
  type: number,
): T | null {
  if (data.length !== codec.fixedSize) return null;
  const decoded = codec.decode(data);
  return decoded.accountType === type ? decoded : null;
}

/** What a decoded vault of either version maps to alike; null for an unknown status or kind. */
export function vaultHeadOf<S>(
  v: Omit<ReturnType<typeof vaultV1Codec.decode>, 'accountType' | 'moderator' | 'reserved'>,
  statuses: readonly S[],
) {
  const status = statuses[v.status];
  if (status === undefined || (v.kind !== 0 && v.kind !== 1)) return null;
  return {
    bump: v.bump,
    kind: v.kind === 1 ? ('major' as const) : ('community' as const),
    status,
    receiptCount: v.receiptCount,
    dareId: v.dareId,
    rentPayer: v.rentPayer,
    deadline: v.deadline,
    refundAfter: v.refundAfter,
    total: v.total,
    rent: v.rent,
    entryCount: v.entryCount,
  };
}

/** A receipt's or an entry's fields (its type tag and padding left out); null as decodeAccount. */
export function decodeRecord<T extends { accountType: number; reserved: ReadonlyUint8Array }>(
  codec: { decode(data: ReadonlyUint8Array): T; fixedSize: number },
  data: ReadonlyUint8Array,
  type: number,
): Omit<T, 'accountType' | 'reserved'> | null {
  const decoded = decodeAccount(codec, data, type);
  if (!decoded) return null;
  const { accountType: _type, reserved: _reserved, ...fields } = decoded;
  return fields;
}

// ---- Instruction data: a tag byte, then the instruction's fields ----

/** Every create_vault begins with its tag and the vault's seed. */
const TAG_AND_DARE = [
  ['tag', u8],
  ['dareId', bytes32],
] as const;

/** The fields of create_vault (v1) up to the kind: what a reader of old transactions needs. */
const CREATE_VAULT_V1_HEAD = [
  ...TAG_AND_DARE,
  ['moderator', key],
  ['deadline', i64],
  ['refundAfter', i64],
  ['amount', u64],
  ['kind', u8],
] as const;

export const createVaultV1HeadCodec = getStructCodec(CREATE_VAULT_V1_HEAD);
/** The bumps of the vault and the creator's receipt, which create_vault makes. */
const BUMPS = [
  ['vaultBump', u8],
  ['receiptBump', u8],
] as const;

export const createVaultV1DataCodec = getStructCodec([...CREATE_VAULT_V1_HEAD, ...BUMPS]);

/** create_vault (v2) up to the kind. */
const CREATE_VAULT_V2_HEAD = [
  ...TAG_AND_DARE,
  ['canceller', key],
  ['guardian', key],
  ['deadline', i64],
  ['refundAfter', i64],
  ['payoutWindow', i64],
  ['amount', u64],
  ['kind', u8],
] as const;

export const createVaultV2HeadCodec = getStructCodec(CREATE_VAULT_V2_HEAD);
/** The judges follow the bumps, as many as `judgeCount` says. */
export const createVaultV2DataCodec = getStructCodec([
  ...CREATE_VAULT_V2_HEAD,
  ['threshold', u8],
  ['judgeCount', u8],
  ...BUMPS,
  ['judges', getArrayCodec(key, { size: 'remainder' })],
]);

const DEPOSIT_HEAD = [
  ['tag', u8],
  ['amount', u64],
] as const;
/** deposit, both versions: the tag and the amount, what a reader of old transactions needs. */
export const depositHeadCodec = getStructCodec(DEPOSIT_HEAD);
export const depositDataCodec = getStructCodec([...DEPOSIT_HEAD, ['receiptBump', u8]]);

const ENTER_V1 = [
  ['tag', u8],
  ['entryBump', u8],
] as const;
export const enterV1DataCodec = getStructCodec(ENTER_V1);
/** v2's enter adds the fingerprint of the proof being judged. */
export const enterV2DataCodec = getStructCodec([...ENTER_V1, ['proofHash', bytes32]]);

/** The data of an instruction that is its tag alone (settle, cancel, refund, the closes, veto, execute). */
export function tagOnly(tag: number): Uint8Array {
  return new Uint8Array([tag]);
}

/** A codec's bytes as a fresh Uint8Array, as kit's `Instruction.data` holds them. */
export function encoded<T>(codec: { encode(value: T): ReadonlyUint8Array }, value: T): Uint8Array {
  return new Uint8Array(codec.encode(value));
}

// ---- Account metas ----

export type AccountMeta = Instruction['accounts'] extends readonly (infer M)[] | undefined ? M : never;

export function signer(account: TransactionSigner, writable: boolean): AccountMeta {
  return {
    address: account.address,
    role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
    signer: account,
  } as AccountMeta;
}

/** A signer given as an address only: its signature is added later (a judge's wallet). */
export function signerOrAddress(account: TransactionSigner | Address, writable: boolean): AccountMeta {
  if (typeof account !== 'string') return signer(account, writable);
  return { address: account, role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER };
}

/** A rent payer that signs only when it pays (a deposit's first receipt): else merely writable. */
export function signerOrWritable(account: TransactionSigner | Address): AccountMeta {
  return typeof account === 'string' ? writable(account) : signer(account, true);
}

export function writable(address: Address): AccountMeta {
  return { address, role: AccountRole.WRITABLE };
}

export function readonly(address: Address): AccountMeta {
  return { address, role: AccountRole.READONLY };
}

export const SYSTEM = readonly(SYSTEM_PROGRAM_ADDRESS);

/**
 * create_vault, deposit and enter (both versions): the one who pays, the one who lends the rent of
 * the record made, the vault, that record, the System program.
 */
export function payingAccounts(
  payer: AccountMeta,
  rentPayer: AccountMeta,
  vault: Address,
  record: Address,
): AccountMeta[] {
  return [payer, rentPayer, writable(vault), writable(record), SYSTEM];
}

export type DareKind = 'community' | 'major';
export const DARE_KIND: Record<DareKind, number> = { community: 0, major: 1 };

/**
 * What both versions' create_vault share: its accounts (the creator and the rent payer signing,
 * the dare's vault, the creator's receipt, the System program) and the data fields it derives.
 */
export async function createVaultParts(input: {
  programId: Address;
  dareId: ReadonlyUint8Array;
  creator: TransactionSigner;
  rentPayer: TransactionSigner;
  kind: DareKind;
}) {
  const vault = await findVaultAddress(input.programId, input.dareId);
  const receipt = await findReceiptAddress(input.programId, vault.address, input.creator.address);
  const creator = signer(input.creator, true);
  return {
    accounts: payingAccounts(creator, signer(input.rentPayer, true), vault.address, receipt.address),
    derived: { kind: DARE_KIND[input.kind], vaultBump: vault.bump, receiptBump: receipt.bump },
  };
}
