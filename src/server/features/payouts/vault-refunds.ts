import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildCancelAndRefundTransactions } from '#server/chain/escrow-program/app-transactions';
import { countVaultAttempts } from './repo';
import type { PayoutOutcome, PayoutsDeps, Transfers, VaultPayout } from './transfers';
import type { VaultState } from './vault-state';

export function createVaultRefunds(
  { db, chain, escrowPrograms }: PayoutsDeps,
  {
    transfers,
    vaultState,
  }: { transfers: Transfers; vaultState: (escrowWallet: string) => Promise<VaultState> },
) {
  const { rpc } = chain;
  /**
   * Refunds every receipt of a vault: `cancel` while it is open (the moderator signs), then a
   * `refund` per receipt (each pays its payer exactly what they put in; the last also carries
   * any stray lamports) and `close_entry` per entry, so the vault closes and its rent returns.
   * Each transaction that refunds is recorded before it is sent and booked from the chain.
   */
  return async function refundVault(payout: { dareId: number | null; escrowWallet: string }): Promise<{
    state: VaultState;
    outcomes: PayoutOutcome[];
  }> {
    const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
    if (!vault) return { state: await vaultState(payout.escrowWallet), outcomes: [] };
    // A named winner's vault refuses cancel and refunds until the guardian vetoes the proposal.
    if (vault.status === 'settled' || vault.status === 'proposed')
      return { state: vault.status, outcomes: [] };
    const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
    const refund: VaultPayout = { ...payout, purpose: 'refund', claimId: null };
    const transactions = await buildCancelAndRefundTransactions(rpc, {
      programId: vault.programId,
      vault: address(payout.escrowWallet),
      ...(await transfers.signers()),
      // Short, so a packet holds 13 refunds, not 12 (decision 058): the vault names the dare, the
      // attempt keeps each try's transactions apart from the last's.
      memo: `refund try ${attempt}`,
    });
    const outcomes = await transfers.sendInOrder(
      refund,
      transactions,
      undefined,
      (transaction) => {
        const refunds = transaction.closes.flatMap((close) => (close.kind === 'refund' ? [close] : []));
        if (refunds.length === 0) return null;
        return { recipient: refunds[0]!.payer, lamports: refunds.reduce((sum, r) => sum + r.amount, 0n) };
      },
      // A v2 vault's records close independently of each other (see record-closes.ts).
      { independentCloses: vault.version === 2 },
    );
    return { state: await vaultState(payout.escrowWallet), outcomes };
  };
}
