/**
 * Escrow v2's account layouts and constants, mirrored from program/src/darepool_escrow_v2.c
 * (docs/program.md documents both; tests decode accounts the deployed program wrote). Receipts
 * are laid out as in version 1.
 */
import type { Address, ReadonlyUint8Array } from '@solana/kit';
import {
  ACCOUNT_TYPE,
  decodeAccount,
  decodeRecord,
  entryV2Codec,
  vaultHeadOf,
  vaultV2Codec,
} from '#server/chain/escrow-program/codec';
import type { Entry, VaultHead, VaultStatus } from '#server/chain/escrow-program/layout';

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

export type VaultV2Status = VaultStatus;
const STATUS: VaultV2Status[] = ['open', 'settled', 'refunding', 'proposed'];

/** What a v2 vault records beyond v1's fields. */
export interface VaultJudging {
  /** The wallets that name winners; `threshold` of them must sign a proposal. */
  judges: Address[];
  threshold: number;
  guardian: Address;
  payoutWindow: bigint;
  /** The standing (or executed) proposal: winners in share order, and when it may be executed. */
  proposal: { winners: Address[]; executesAt: bigint } | null;
  vetoCount: number;
}

export interface VaultV2 extends VaultHead, VaultJudging {
  /** May only cancel (DarePool: the server's moderator key). */
  canceller: Address;
}

export interface EntryV2 extends Entry {
  /** The entrant's fingerprint of the proof being judged (DarePool: a SHA-256). */
  proofHash: ReadonlyUint8Array;
}

/** null when the bytes are not a v2 vault (wrong size, type tag, status or kind). */
export function decodeVaultV2(data: ReadonlyUint8Array): VaultV2 | null {
  const v = decodeAccount(vaultV2Codec, data, ACCOUNT_TYPE.vault);
  const head = v && vaultHeadOf(v, STATUS);
  if (!v || !head) return null;
  if (v.judgeCount < 1 || v.judgeCount > MAX_JUDGES || v.winnerCount > 2) return null;
  return {
    ...head,
    canceller: v.moderator,
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
  return decodeRecord(entryV2Codec, data, ACCOUNT_TYPE.entry);
}
