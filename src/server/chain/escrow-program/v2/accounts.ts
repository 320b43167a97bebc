/** Reading escrow v2's accounts from any node, checked: owned by the program and decoding as that kind. */
import { type Address, fetchEncodedAccount, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import {
  decodeEntryV2,
  decodeReceipt,
  decodeVaultV2,
  type EntryV2,
  type Receipt,
  type VaultV2,
} from './layout';

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

/** null when there is no v2 vault of `programId` at `address` (never created, closed, or forged). */
export function fetchVaultV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<VaultV2>(rpc, programId, address, decodeVaultV2);
}

export function fetchReceiptV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<Receipt>(rpc, programId, address, decodeReceipt);
}

export function fetchEntryV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned<EntryV2>(rpc, programId, address, decodeEntryV2);
}
