/**
 * Reading the escrow program's accounts from any node, checked: an account counts only when the
 * program owns it and its bytes decode as that kind of account (what the server verifies before
 * recording a dare or a contribution).
 */
import { type Address, fetchEncodedAccount, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import { decodeEntry, decodeReceipt, decodeVault, type Entry, type Receipt, type Vault } from './layout';

async function fetchOwned<T>(
  rpc: Rpc<GetAccountInfoApi>,
  programId: Address,
  address: Address,
  decode: (data: Uint8Array) => T | null,
): Promise<(T & { address: Address; lamports: bigint }) | null> {
  const account = await fetchEncodedAccount(rpc, address, { commitment: 'confirmed' });
  if (!account.exists || account.programAddress !== programId) return null;
  const decoded = decode(new Uint8Array(account.data));
  return decoded === null ? null : { ...decoded, address, lamports: account.lamports };
}

/** null when there is no vault of `programId` at `address` (never created, closed, or forged). */
export function fetchVault(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<Vault>(rpc, programId, address, decodeVault);
}

export function fetchReceipt(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<Receipt>(rpc, programId, address, decodeReceipt);
}

export function fetchEntry(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<Entry>(rpc, programId, address, decodeEntry);
}
