/** Reading escrow v2's accounts from any node, checked: owned by the program and decoding as that kind. */
import type { Address, GetAccountInfoApi, Rpc } from '@solana/kit';
import { fetchOwned } from '#server/chain/escrow-program/accounts';
import { decodeEntryV2, decodeReceipt, decodeVaultV2 } from './layout';

/** null when there is no v2 vault of `programId` at `address` (never created, closed, or forged). */
export function fetchVaultV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned(rpc, programId, address, decodeVaultV2);
}

export function fetchReceiptV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned(rpc, programId, address, decodeReceipt);
}

export function fetchEntryV2(rpc: Rpc<GetAccountInfoApi>, programId: Address, address: Address) {
  return fetchOwned(rpc, programId, address, decodeEntryV2);
}
