/**
 * The escrow program's account layouts and constants, mirrored from program/src/darepool_escrow.c
 * (docs/program.md documents both; a test decodes accounts the deployed program wrote).
 */
import {
  type Address,
  type Decoder,
  fixDecoderSize,
  getAddressDecoder,
  getBytesDecoder,
  getI64Decoder,
  getStructDecoder,
  getU8Decoder,
  getU32Decoder,
  getU64Decoder,
  type ReadonlyUint8Array,
} from '@solana/kit';

export const ACCOUNT_TYPE = { vault: 1, receipt: 2, entry: 3 } as const;
export const VAULT_SIZE = 144;
export const RECEIPT_SIZE = 120;
export const ENTRY_SIZE = 112;

/** 0.01 SOL: the smallest stake or pool contribution the program accepts. */
export const MIN_DEPOSIT_LAMPORTS = 10_000_000n;

export type DareKind = 'community' | 'major';
export const DARE_KIND: Record<DareKind, number> = { community: 0, major: 1 };

/** `proposed`: program v2 only, a winner is named and waits for its payout window. */
export type VaultStatus = 'open' | 'settled' | 'refunding' | 'proposed';
const VAULT_STATUS: VaultStatus[] = ['open', 'settled', 'refunding'];

export interface Vault {
  bump: number;
  kind: DareKind;
  status: VaultStatus;
  receiptCount: number;
  dareId: ReadonlyUint8Array;
  moderator: Address;
  rentPayer: Address;
  /** Unix seconds: deposits and entries are accepted strictly before it. */
  deadline: bigint;
  /** Unix seconds: from then on, with no settlement, anyone may refund. */
  refundAfter: bigint;
  /** Sum of the receipts not yet refunded. */
  total: bigint;
  /** What the rent payer put in for this account; it goes back there when the vault closes. */
  rent: bigint;
  entryCount: number;
}

export interface Receipt {
  bump: number;
  vault: Address;
  payer: Address;
  rentPayer: Address;
  amount: bigint;
  rent: bigint;
}

export interface Entry {
  bump: number;
  vault: Address;
  entrant: Address;
  rentPayer: Address;
  rent: bigint;
}

const key = getAddressDecoder();

const vaultDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['bump', getU8Decoder()],
  ['kind', getU8Decoder()],
  ['status', getU8Decoder()],
  ['receiptCount', getU32Decoder()],
  ['dareId', fixDecoderSize(getBytesDecoder(), 32)],
  ['moderator', key],
  ['rentPayer', key],
  ['deadline', getI64Decoder()],
  ['refundAfter', getI64Decoder()],
  ['total', getU64Decoder()],
  ['rent', getU64Decoder()],
  ['entryCount', getU32Decoder()],
  ['reserved', getU32Decoder()],
]);

const receiptDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['bump', getU8Decoder()],
  ['reserved', fixDecoderSize(getBytesDecoder(), 6)],
  ['vault', key],
  ['payer', key],
  ['rentPayer', key],
  ['amount', getU64Decoder()],
  ['rent', getU64Decoder()],
]);

const entryDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['bump', getU8Decoder()],
  ['reserved', fixDecoderSize(getBytesDecoder(), 6)],
  ['vault', key],
  ['entrant', key],
  ['rentPayer', key],
  ['rent', getU64Decoder()],
]);

function decodeTyped<T extends { accountType: number }>(
  decoder: Decoder<T>,
  data: ReadonlyUint8Array,
  size: number,
  type: number,
): T | null {
  if (data.length !== size) return null;
  const decoded = decoder.decode(data);
  return decoded.accountType === type ? decoded : null;
}

/** null when the bytes are not a vault (wrong size or type tag). */
export function decodeVault(data: ReadonlyUint8Array): Vault | null {
  const v = decodeTyped(vaultDecoder, data, VAULT_SIZE, ACCOUNT_TYPE.vault);
  if (!v) return null;
  const status = VAULT_STATUS[v.status];
  if (!status || (v.kind !== 0 && v.kind !== 1)) return null;
  return {
    bump: v.bump,
    kind: v.kind === 1 ? 'major' : 'community',
    status,
    receiptCount: v.receiptCount,
    dareId: v.dareId,
    moderator: v.moderator,
    rentPayer: v.rentPayer,
    deadline: v.deadline,
    refundAfter: v.refundAfter,
    total: v.total,
    rent: v.rent,
    entryCount: v.entryCount,
  };
}

export function decodeReceipt(data: ReadonlyUint8Array): Receipt | null {
  const r = decodeTyped(receiptDecoder, data, RECEIPT_SIZE, ACCOUNT_TYPE.receipt);
  if (!r) return null;
  return {
    bump: r.bump,
    vault: r.vault,
    payer: r.payer,
    rentPayer: r.rentPayer,
    amount: r.amount,
    rent: r.rent,
  };
}

export function decodeEntry(data: ReadonlyUint8Array): Entry | null {
  const e = decodeTyped(entryDecoder, data, ENTRY_SIZE, ACCOUNT_TYPE.entry);
  if (!e) return null;
  return { bump: e.bump, vault: e.vault, entrant: e.entrant, rentPayer: e.rentPayer, rent: e.rent };
}
