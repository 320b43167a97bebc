/**
 * One reading of vaults and entries for both escrow programs. Vaults made before program v2 stay
 * under v1 for life (the moderator settles them); every new vault is one of v2 (judges propose, a
 * guardian may veto, anyone executes). Receipts, deposits, cancel, refunds and closes are the same
 * in both (docs/program.md), so the code that refunds or closes a vault works for either once it
 * knows the program, which it learns from the vault account's owner: the chain, not the database.
 */
import type { Address, ReadonlyUint8Array } from '@solana/kit';
import { decodeEntry, decodeVault, type Entry, type Vault } from './layout';
import { decodeEntryV2, decodeVaultV2 } from './v2/layout';

/** The two programs' ids on this chain. */
export interface EscrowPrograms {
  v1: Address;
  v2: Address;
}

/** What a v2 vault records beyond v1's fields. */
export interface VaultJudging {
  judges: Address[];
  threshold: number;
  guardian: Address;
  payoutWindow: bigint;
  /** The standing (or executed) proposal: winners in share order, and when it may be executed. */
  proposal: { winners: Address[]; executesAt: bigint } | null;
  vetoCount: number;
}

/** A vault of either program: v1's fields (`moderator` is v2's canceller), its version, and v2's judging. */
export type AnyVault = Vault & { version: 1 | 2; judging: VaultJudging | null };

/** Either program's vault bytes; null when they are neither. */
export function decodeAnyVault(data: ReadonlyUint8Array): AnyVault | null {
  const v1 = decodeVault(data);
  if (v1) return { ...v1, version: 1, judging: null };
  const v2 = decodeVaultV2(data);
  if (!v2) return null;
  const { canceller, judges, threshold, guardian, payoutWindow, proposal, vetoCount, ...common } = v2;
  return {
    ...common,
    moderator: canceller,
    version: 2,
    judging: { judges, threshold, guardian, payoutWindow, proposal, vetoCount },
  };
}

/** An entry of either program; `proofHash` is v2's fingerprint of the proof (null in v1). */
export type AnyEntry = Entry & { proofHash: ReadonlyUint8Array | null };

export function decodeAnyEntry(data: ReadonlyUint8Array): AnyEntry | null {
  const v1 = decodeEntry(data);
  if (v1) return { ...v1, proofHash: null };
  const v2 = decodeEntryV2(data);
  return v2 && { ...v2 };
}

/** The program ids in the order vaults are looked up: new ones first. */
export function programIds(programs: EscrowPrograms | Address): readonly Address[] {
  return typeof programs === 'string' ? [programs] : [programs.v2, programs.v1];
}
