/**
 * Which escrow program holds a vault, read from the chain: the owner of the vault's account.
 * Vaults of program v1 and v2 live side by side (dare_wallets.program_version); a vault keeps its
 * program's rules for life, so every step that builds an instruction for it asks here first.
 */
import { type Address, fetchEncodedAccount, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import { decodeVault } from './layout';
import { decodeVaultV2 } from './v2/layout';

export type VaultOnChain =
  | { version: 1; programId: Address; status: string; deadline: bigint }
  | { version: 2; programId: Address; status: string; deadline: bigint };

/**
 * The vault at `vault` and its program: v1 when `v1ProgramId` owns it; otherwise a v2 vault of
 * its owner, which must be `v2ProgramId` when one is given. null when there is no such vault
 * (never created, closed, or bytes that are not a vault).
 */
export async function fetchVaultOnChain(
  rpc: Rpc<GetAccountInfoApi>,
  programs: { v1ProgramId: Address; v2ProgramId?: Address },
  vault: Address,
): Promise<VaultOnChain | null> {
  const account = await fetchEncodedAccount(rpc, vault, { commitment: 'confirmed' });
  if (!account.exists) return null;
  const data = new Uint8Array(account.data);
  if (account.programAddress === programs.v1ProgramId) {
    const decoded = decodeVault(data);
    return decoded && { version: 1, programId: account.programAddress, ...pick(decoded) };
  }
  if (programs.v2ProgramId !== undefined && account.programAddress !== programs.v2ProgramId) return null;
  const decoded = decodeVaultV2(data);
  return decoded && { version: 2, programId: account.programAddress, ...pick(decoded) };
}

const pick = (vault: { status: string; deadline: bigint }) => ({
  status: vault.status,
  deadline: vault.deadline,
});
