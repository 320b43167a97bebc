import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import {
  buildExecuteTransaction,
  buildSettleTransactions,
  VaultStateError,
  type VaultTransaction,
} from '#server/chain/escrow-program/app-transactions';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { countVaultAttempts, type PayoutTransferRow } from './repo';
import type { BeforeRecord, PayoutOutcome, PayoutsDeps, Transfers, VaultPayout } from './transfers';
import type { VaultState } from './vault-state';

/** A v2 proposal still in its window: nobody can pay it before `executesAt`. */
export class PayoutNotYetDue extends Error {
  constructor(readonly executesAt: Date) {
    super(`The payout window ends at ${executesAt.toISOString()}`);
  }
}

export type WinnersPayout = Omit<VaultPayout, 'purpose'> & { winners: readonly string[] };

/**
 * Paying a dare's winners: v1's `settle` (signed by the moderator) or v2's `execute` of the
 * judges' proposal once its window has passed; the record closes follow.
 */
export function createWinnerPayouts(
  { db, chain, escrowKeys, escrowPrograms }: PayoutsDeps,
  {
    transfers,
    vaultState,
    closeSettledRecords,
  }: {
    transfers: Transfers;
    vaultState: (escrowWallet: string) => Promise<VaultState>;
    closeSettledRecords: (escrowWallet: string) => Promise<VaultState>;
  },
) {
  const { rpc } = chain;

  /**
   * Signs a dare's `settle` (the moderator signs; everything the vault holds above its rent goes
   * to the winners, 70/30 for a major dare) with as many record closes as fit, and records it
   * with `beforeRecord` before anything is sent. Throws VaultStateError when the vault cannot
   * be settled (closed, not open, a winner never entered). Returns the record and the closes
   * left for later transactions.
   */
  async function prepareSettle(
    payout: WinnersPayout,
    beforeRecord?: BeforeRecord,
  ): Promise<{ transfer: PayoutTransferRow; closes: VaultTransaction[] }> {
    const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
    if (!vault) throw new VaultStateError('The vault of this dare is closed');
    // Only v1 has settle: a v2 vault pays the winners its judges proposed, after the window.
    if (vault.version !== 1)
      throw new VaultStateError("This dare is paid by its judges' proposal, not settled");
    const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
    const [settle, ...closes] = await buildSettleTransactions(rpc, {
      programId: vault.programId,
      vault: address(payout.escrowWallet),
      ...(await transfers.signers()),
      winners: payout.winners.map((winner) => address(winner)),
      memo: transfers.memo({ ...payout, purpose: 'claim' }, 'prize payout', attempt),
    });
    const transfer = await transfers.record(
      { ...payout, purpose: 'claim' },
      settle!,
      { recipient: payout.winners[0]!, lamports: vault.lamports - vault.rent },
      beforeRecord,
    );
    return { transfer, closes };
  }

  /**
   * Pays a dare's winners (prepareSettle, then sends it); once it landed, the closes that did
   * not fit in it follow, so every record's rent returns to the fee payer (the job retries them).
   */
  async function settle(payout: WinnersPayout, beforeRecord?: BeforeRecord): Promise<PayoutOutcome> {
    const { transfer, closes } = await prepareSettle(payout, beforeRecord);
    const outcome = await transfers.sendStored(transfer);
    if (outcome.status !== 'confirmed') return outcome;
    for (const close of closes) if (!(await transfers.sendAndConfirm(close))) break;
    await vaultState(payout.escrowWallet);
    return outcome;
  }

  /**
   * Pays a dare's winners by its vault's program: v1's `settle` (the moderator signs), or v2's
   * `execute` (prepareExecute, then sent; once it landed, the records' closes, one each).
   */
  async function payWinners(payout: WinnersPayout, beforeRecord?: BeforeRecord): Promise<PayoutOutcome> {
    const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
    if (!vault) throw new VaultStateError('The vault of this dare is closed');
    if (vault.version === 1) return settle(payout, beforeRecord);
    const { transfer } = await prepareExecute(payout, beforeRecord);
    const outcome = await transfers.sendStored(transfer);
    if (outcome.status === 'confirmed') await closeSettledRecords(payout.escrowWallet);
    return outcome;
  }

  /**
   * Signs a v2 vault's `execute` of the winners its judges proposed, once the payout window has
   * passed (throws PayoutNotYetDue before), and records it with `beforeRecord` before anything is
   * sent. `winners` are who the books say won: any other list than the proposal's is refused.
   */
  async function prepareExecute(
    payout: WinnersPayout,
    beforeRecord?: BeforeRecord,
  ): Promise<{ transfer: PayoutTransferRow }> {
    const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
    if (!vault) throw new VaultStateError('The vault of this dare is closed');
    const proposal = vault.judging?.proposal;
    if (vault.status !== 'proposed' || !proposal)
      throw new VaultStateError(
        vault.status === 'settled'
          ? 'This dare was paid out already'
          : 'No winner of this dare is named on chain',
      );
    if (proposal.winners.join() !== payout.winners.join())
      throw new VaultStateError('The winners named on chain are not the ones recorded for this dare');
    // The program judges the window by the chain's clock, so that is the clock asked.
    const now = await fetchChainTime(rpc);
    if (now < proposal.executesAt) throw new PayoutNotYetDue(new Date(Number(proposal.executesAt) * 1000));
    const attempt = (await countVaultAttempts(db, payout.escrowWallet)) + 1;
    const execute = await buildExecuteTransaction(rpc, {
      programId: vault.programId,
      vault: vault.address,
      winners: proposal.winners,
      feePayer: await escrowKeys.feePayer(),
      memo: transfers.memo({ ...payout, purpose: 'claim' }, 'prize payout', attempt),
    });
    const transfer = await transfers.record(
      { ...payout, purpose: 'claim' },
      execute,
      { recipient: payout.winners[0]!, lamports: vault.lamports - vault.rent },
      beforeRecord,
    );
    return { transfer };
  }

  return { prepareSettle, prepareExecute, settle, payWinners };
}
