/**
 * Reading the escrow programs' accounts from any node, checked: an account counts only when one of
 * the given programs owns it and its bytes decode as that kind of account (what the server
 * verifies before recording a dare or a contribution). Each result says which program owns it, so
 * the transactions built on it go to that program.
 */
import { type Address, fetchEncodedAccount, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import {
  type AnyEntry,
  type AnyVault,
  decodeAnyEntry,
  decodeAnyVault,
  type EscrowPrograms,
  programIds,
  versionOf,
} from './any-program';
import { decodeReceipt, type Receipt } from './layout';

export type Owned<T> = T & { address: Address; lamports: bigint; programId: Address };

export async function fetchOwned<T>(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms | Address,
  address: Address,
  decode: (data: Uint8Array, version: 1 | 2 | undefined) => T | null,
): Promise<Owned<T> | null> {
  const account = await fetchEncodedAccount(rpc, address, { commitment: 'confirmed' });
  if (!account.exists || !programIds(programs).includes(account.programAddress)) return null;
  // The owner decides the layout: v2's bytes under v1's id (or the reverse) are no account of ours.
  const decoded = decode(new Uint8Array(account.data), versionOf(programs, account.programAddress));
  return decoded === null
    ? null
    : { ...decoded, address, lamports: account.lamports, programId: account.programAddress };
}

/**
 * null when there is no vault of these programs at `address` (never created, closed, or forged).
 * `programs`: one program id, or both programs (the vault's own is then read from its owner).
 */
export function fetchVault(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms | Address,
  address: Address,
) {
  return fetchOwned<AnyVault>(rpc, programs, address, decodeAnyVault);
}

export function fetchReceipt(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms | Address,
  address: Address,
) {
  return fetchOwned<Receipt>(rpc, programs, address, decodeReceipt);
}

export function fetchEntry(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms | Address,
  address: Address,
) {
  return fetchOwned<AnyEntry>(rpc, programs, address, decodeAnyEntry);
}
