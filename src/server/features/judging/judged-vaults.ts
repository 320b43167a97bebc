/**
 * A judged (program v2) dare's vault as naming winners reads it: its terms (judges, threshold,
 * guardian, window, read once per vault), the dare behind it, and who may judge it.
 */
import { type Address, address } from '@solana/kit';
import { type DareJudging, JUDGING_MESSAGES } from '#contract/judging';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import { fetchVaultV2, type VaultV2 } from '#server/chain/escrow-program/v2';
import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { conflict, forbidden } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { Announce } from '#server/features/chat/announce';
import { NAMING_MESSAGES } from './naming-messages';
import { findDareForNaming } from './repo';

export interface JudgingDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  escrowKeys: EscrowKeys;
  escrowProgramV2Id: Address;
  /** Chat announcements of a community dare's named winner (a Major Dare's picks announce themselves). */
  announce?: Announce;
}

/** What every part of naming winners works with: the deps, and the vault terms read so far. */
export interface Judging extends JudgingDeps {
  announce: Announce;
  /** A vault's judges, threshold, guardian and window never change: read once per vault. */
  terms: Map<string, DareJudging>;
}

/** A v2 vault as the chain holds it now (409 when it is not on chain); its terms remembered. */
export async function vaultOf(
  { chain, escrowProgramV2Id, terms }: Judging,
  vault: string,
): Promise<VaultV2 & { lamports: bigint }> {
  const found = await fetchVaultV2(chain.rpc, escrowProgramV2Id, address(vault));
  if (!found) throw conflict(NAMING_MESSAGES.noVault);
  terms.set(vault, {
    judges: found.judges,
    threshold: found.threshold,
    guardian: found.guardian,
    payoutWindowSeconds: Number(found.payoutWindow),
  });
  return found;
}

/** The dare when its vault is a v2 one; null for v1 (and for a dare without a vault). */
export async function v2Dare({ db }: Judging, dareId: number) {
  const dare = await findDareForNaming(db, dareId);
  // No dare: the v1 path answers it as it always did.
  if (dare?.programVersion !== 2 || !dare.escrowWallet) return null;
  return { ...dare, vault: dare.escrowWallet };
}

/** The caller's wallet when it is one of the vault's judges; 403 otherwise. */
export function requireJudge(user: UserRow, vault: VaultV2): Address {
  const wallet = user.walletAddress;
  if (!wallet || !vault.judges.includes(wallet as Address)) throw forbidden(JUDGING_MESSAGES.notJudge);
  return wallet as Address;
}
