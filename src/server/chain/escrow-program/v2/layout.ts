/**
 * Escrow v2's account layouts and constants, mirrored from program/src/darepool_escrow_v2.c
 * (docs/program.md documents both; tests decode accounts the deployed program wrote). Receipts
 * are laid out as in version 1.
 */
import {
  type Address,
  fixDecoderSize,
  getAddressDecoder,
  getArrayDecoder,
  getBytesDecoder,
  getI64Decoder,
  getStructDecoder,
  getU8Decoder,
  getU32Decoder,
  getU64Decoder,
  type ReadonlyUint8Array,
} from '@solana/kit';
import type { DareKind } from '#server/chain/escrow-program/layout';

export {
  DARE_KIND,
  type DareKind,
  decodeReceipt,
  MIN_DEPOSIT_LAMPORTS,
  RECEIPT_SIZE,
  type Receipt,
} from '#server/chain/escrow-program/layout';

export const VAULT_V2_SIZE = 424;
export const ENTRY_V2_SIZE = 144;
export const MAX_JUDGES = 5;
export const MIN_PAYOUT_WINDOW_SECONDS = 3600n;
export const MAX_PAYOUT_WINDOW_SECONDS = 7n * 86_400n;
/** create_vault refuses a deadline further ahead than this. */
export const MAX_DEADLINE_AHEAD_SECONDS = 400n * 86_400n;
/** refund_after is at most this long after the deadline. */
export const MAX_REFUND_DELAY_SECONDS = 60n * 86_400n;

export type VaultV2Status = 'open' | 'settled' | 'refunding' | 'proposed';
const STATUS: VaultV2Status[] = ['open', 'settled', 'refunding', 'proposed'];

export interface VaultV2 {
  bump: number;
  kind: DareKind;
  status: VaultV2Status;
  receiptCount: number;
  dareId: ReadonlyUint8Array;
  /** May only cancel (DarePool: the server's moderator key). */
  canceller: Address;
  rentPayer: Address;
  /** Unix seconds: deposits and entries are accepted strictly before it. */
  deadline: bigint;
  /** Unix seconds: from then on, with no proposal standing and no payout, anyone may refund. */
  refundAfter: bigint;
  total: bigint;
  rent: bigint;
  entryCount: number;
  /** The wallets that name winners; `threshold` of them must sign a proposal. */
  judges: Address[];
  threshold: number;
  guardian: Address;
  payoutWindow: bigint;
  /** The standing (or executed) proposal: winners in share order, and when it may be executed. */
  proposal: { winners: Address[]; executesAt: bigint } | null;
  vetoCount: number;
}

export interface EntryV2 {
  bump: number;
  vault: Address;
  entrant: Address;
  rentPayer: Address;
  rent: bigint;
  /** The entrant's fingerprint of the proof being judged (DarePool: a SHA-256). */
  proofHash: ReadonlyUint8Array;
}

const key = getAddressDecoder();

const vaultDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['bump', getU8Decoder()],
  ['kind', getU8Decoder()],
  ['status', getU8Decoder()],
  ['receiptCount', getU32Decoder()],
  ['dareId', fixDecoderSize(getBytesDecoder(), 32)],
  ['canceller', key],
  ['rentPayer', key],
  ['deadline', getI64Decoder()],
  ['refundAfter', getI64Decoder()],
  ['total', getU64Decoder()],
  ['rent', getU64Decoder()],
  ['entryCount', getU32Decoder()],
  ['judgeCount', getU8Decoder()],
  ['threshold', getU8Decoder()],
  ['winnerCount', getU8Decoder()],
  ['reserved', getU8Decoder()],
  ['payoutWindow', getI64Decoder()],
  ['executesAt', getI64Decoder()],
  ['guardian', key],
  ['judges', getArrayDecoder(key, { size: MAX_JUDGES })],
  ['winners', getArrayDecoder(key, { size: 2 })],
  ['vetoCount', getU32Decoder()],
  ['reserved2', getU32Decoder()],
]);

const entryDecoder = getStructDecoder([
  ['accountType', getU8Decoder()],
  ['bump', getU8Decoder()],
  ['reserved', fixDecoderSize(getBytesDecoder(), 6)],
  ['vault', key],
  ['entrant', key],
  ['rentPayer', key],
  ['rent', getU64Decoder()],
  ['proofHash', fixDecoderSize(getBytesDecoder(), 32)],
]);

/** null when the bytes are not a v2 vault (wrong size, type tag, status or kind). */
export function decodeVaultV2(data: ReadonlyUint8Array): VaultV2 | null {
  if (data.length !== VAULT_V2_SIZE) return null;
  const v = vaultDecoder.decode(data);
  const status = STATUS[v.status];
  if (v.accountType !== 1 || !status || (v.kind !== 0 && v.kind !== 1)) return null;
  if (v.judgeCount < 1 || v.judgeCount > MAX_JUDGES || v.winnerCount > 2) return null;
  return {
    bump: v.bump,
    kind: v.kind === 1 ? 'major' : 'community',
    status,
    receiptCount: v.receiptCount,
    dareId: v.dareId,
    canceller: v.canceller,
    rentPayer: v.rentPayer,
    deadline: v.deadline,
    refundAfter: v.refundAfter,
    total: v.total,
    rent: v.rent,
    entryCount: v.entryCount,
    judges: v.judges.slice(0, v.judgeCount),
    threshold: v.threshold,
    guardian: v.guardian,
    payoutWindow: v.payoutWindow,
    proposal:
      v.winnerCount === 0 ? null : { winners: v.winners.slice(0, v.winnerCount), executesAt: v.executesAt },
    vetoCount: v.vetoCount,
  };
}

export function decodeEntryV2(data: ReadonlyUint8Array): EntryV2 | null {
  if (data.length !== ENTRY_V2_SIZE) return null;
  const e = entryDecoder.decode(data);
  if (e.accountType !== 3) return null;
  return {
    bump: e.bump,
    vault: e.vault,
    entrant: e.entrant,
    rentPayer: e.rentPayer,
    rent: e.rent,
    proofHash: e.proofHash,
  };
}
