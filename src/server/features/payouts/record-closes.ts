import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildCloseRecordsTransactions } from '#server/chain/escrow-program/app-transactions';
import type { PayoutsDeps, Transfers } from './transfers';
import type { VaultState } from './vault-state';

/**
 * Closes what a settled vault still holds (receipts and entries created or left after the
 * payout), so each record's rent and the vault's return to whoever paid them. Moves no pool money.
 */
export function createRecordCloses(
  { chain, escrowKeys, escrowPrograms }: PayoutsDeps,
  {
    transfers,
    vaultState,
  }: { transfers: Transfers; vaultState: (escrowWallet: string) => Promise<VaultState> },
) {
  const { rpc } = chain;
  return async function closeSettledRecords(escrowWallet: string): Promise<VaultState> {
    const vault = await fetchVault(rpc, escrowPrograms, address(escrowWallet));
    const state = await vaultState(escrowWallet);
    if (state !== 'settled' || !vault) return state;
    const transactions = await buildCloseRecordsTransactions(rpc, {
      programId: vault.programId,
      vault: address(escrowWallet),
      feePayer: await escrowKeys.feePayer(),
    });
    // A v2 vault's closes are independent of each other: one that cannot land (its entrant's
    // account refuses the rent) leaves the rest to close, packed closes going again one by
    // one (decision 047). v1's batches stop at the first failure, as they always have; the job
    // sends what is left again.
    for (const transaction of transactions)
      if (!(await transfers.sendAndConfirm(transaction)) && vault.version === 1) break;
    return vaultState(escrowWallet);
  };
}
