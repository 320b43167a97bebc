/**
 * One reading of vaults and entries for both escrow programs. Vaults made before program v2 stay
 * under v1 for life (the moderator settles them); every new vault is one of v2 (judges propose, a
 * guardian may veto, anyone executes). Receipts, deposits, cancel, refunds and closes are the same
 * in both (docs/program.md), so the code that refunds or closes a vault works for either once it
 * knows the program, which it learns from the vault account's owner: the chain, not the database.
 */
import type { Address, ReadonlyUint8Array } from '@solana/kit';
import { decodeEntry, decodeVault, type Entry, type Vault } from './layout';
import { decodeEntryV2, decodeVaultV2, type VaultJudging } from './v2/layout';

export type { VaultJudging } from './v2/layout';

/**
 * The two programs' ids on this chain. `v1` is null where the chain never had a v1 vault (a new
 * data folder, a cluster set up after v1 was retired: decision 081): no account is then v1's.
 */
export interface EscrowPrograms {
  v1: Address | null;
  v2: Address;
}

/**
 * The program of a vault recorded as `version`'s. A v1 vault exists only where v1 runs: a start
 * without v1 refuses a database that holds one (src/server/chain-identity.ts), so the throw here
 * is never reached by the app's own rows.
 */
export function programOfVersion(programs: EscrowPrograms, version: number): Address {
  if (version === 2) return programs.v2;
  if (programs.v1 === null)
    throw new Error(
      'A vault of escrow program v1, but this chain runs no v1 program (ESCROW_PROGRAM_ID: docs/decisions/081)',
    );
  return programs.v1;
}

/** A vault of either program: v1's fields (`moderator` is v2's canceller), its version, and v2's judging. */
export type AnyVault = Vault & { version: 1 | 2; judging: VaultJudging | null };

/** Either program's vault bytes (or only `version`'s layout, when the owner says which); null when they are neither. */
export function decodeAnyVault(data: ReadonlyUint8Array, version?: 1 | 2): AnyVault | null {
  const v1 = version === 2 ? null : decodeVault(data);
  if (v1) return { ...v1, version: 1, judging: null };
  const v2 = version === 1 ? null : decodeVaultV2(data);
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

export function decodeAnyEntry(data: ReadonlyUint8Array, version?: 1 | 2): AnyEntry | null {
  const v1 = version === 2 ? null : decodeEntry(data);
  if (v1) return { ...v1, proofHash: null };
  const v2 = version === 1 ? null : decodeEntryV2(data);
  return v2 && { ...v2 };
}

/** The program ids an account may be owned by. */
export function programIds(programs: EscrowPrograms | Address): readonly Address[] {
  if (typeof programs === 'string') return [programs];
  return programs.v1 === null ? [programs.v2] : [programs.v2, programs.v1];
}

/** Which layout an account of `owner` has, when both programs are known (else: either). */
export function versionOf(programs: EscrowPrograms | Address, owner: Address): 1 | 2 | undefined {
  if (typeof programs === 'string') return undefined;
  return owner === programs.v2 ? 2 : 1;
}
