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
} from './any-program';
import { decodeReceipt, type Receipt } from './layout';

export type Owned<T> = T & { address: Address; lamports: bigint; programId: Address };

async function fetchOwned<T>(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms | Address,
  address: Address,
  decode: (data: Uint8Array) => T | null,
): Promise<Owned<T> | null> {
  const account = await fetchEncodedAccount(rpc, address, { commitment: 'confirmed' });
  if (!account.exists || !programIds(programs).includes(account.programAddress)) return null;
  const decoded = decode(new Uint8Array(account.data));
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
