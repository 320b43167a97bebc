/**
 * The escrow program's account layouts and constants, mirrored from program/src/darepool_escrow.c
 * (docs/program.md documents both; a test decodes accounts the deployed program wrote).
 */
import type { Address, ReadonlyUint8Array } from '@solana/kit';
import type { DareKind } from './codec';
import {
  ACCOUNT_TYPE,
  decodeAccount,
  decodeRecord,
  entryV1Codec,
  receiptCodec,
  vaultHeadOf,
  vaultV1Codec,
} from './codec';

export { ACCOUNT_TYPE } from './codec';
export const VAULT_SIZE = 144;
export const RECEIPT_SIZE = 120;
export const ENTRY_SIZE = 112;

/** 0.01 SOL: the smallest stake or pool contribution the program accepts. */
export const MIN_DEPOSIT_LAMPORTS = 10_000_000n;

export { DARE_KIND, type DareKind } from './codec';

/** `proposed`: program v2 only, a winner is named and waits for its payout window. */
export type VaultStatus = 'open' | 'settled' | 'refunding' | 'proposed';
const VAULT_STATUS: VaultStatus[] = ['open', 'settled', 'refunding'];

/** What a vault of either program version records alike. */
export interface VaultHead {
  bump: number;
  kind: DareKind;
  status: VaultStatus;
  receiptCount: number;
  dareId: ReadonlyUint8Array;
  rentPayer: Address;
  /** Unix seconds: deposits and entries are accepted strictly before it. */
  deadline: bigint;
  /** Unix seconds: from then on, with no settlement (v2: no proposal standing), anyone may refund. */
  refundAfter: bigint;
  /** Sum of the receipts not yet refunded. */
  total: bigint;
  /** What the rent payer put in for this account; it goes back there when the vault closes. */
  rent: bigint;
  entryCount: number;
}

export interface Vault extends VaultHead {
  moderator: Address;
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

/** null when the bytes are not a vault (wrong size or type tag). */
export function decodeVault(data: ReadonlyUint8Array): Vault | null {
  const v = decodeAccount(vaultV1Codec, data, ACCOUNT_TYPE.vault);
  const head = v && vaultHeadOf(v, VAULT_STATUS);
  return head && { ...head, moderator: v.moderator };
}

export function decodeReceipt(data: ReadonlyUint8Array): Receipt | null {
  return decodeRecord(receiptCodec, data, ACCOUNT_TYPE.receipt);
}

export function decodeEntry(data: ReadonlyUint8Array): Entry | null {
  return decodeRecord(entryV1Codec, data, ACCOUNT_TYPE.entry);
}
