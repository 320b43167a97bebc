import { address } from '@solana/kit';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildExecuteTransaction, VaultStateError } from '#server/chain/escrow-program/app-transactions';
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

/** Why a v1 vault pays no winner (Claim Prize says it after 'cannot be paid from this dare's vault: '). */
export const V1_RETIRED =
  'its escrow (program v1) is retired, so every backer is refunded instead and no prize is paid';

/**
 * Paying a dare's winners: v2's `execute` of the judges' proposal once its window has passed; the
 * record closes follow.
 */
export function createWinnerPayouts(
  { db, chain, escrowKeys, escrowPrograms }: PayoutsDeps,
  {
    transfers,
    closeSettledRecords,
  }: {
    transfers: Transfers;
    closeSettledRecords: (escrowWallet: string) => Promise<VaultState>;
  },
) {
  const { rpc } = chain;

  /**
   * Pays a dare's winners: v2's `execute` (prepareExecute, then sent; once it landed, the records'
   * closes, one each). A v1 vault is never paid out: its program let the moderator key settle it to
   * anyone, so it is retired, its payers refunded (docs/decisions/050-retire-v1.md).
   */
  async function payWinners(payout: WinnersPayout, beforeRecord?: BeforeRecord): Promise<PayoutOutcome> {
    const vault = await fetchVault(rpc, escrowPrograms, address(payout.escrowWallet));
    if (!vault) throw new VaultStateError('The vault of this dare is closed');
    if (vault.version === 1) throw new VaultStateError(V1_RETIRED);
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

  return { prepareExecute, payWinners };
}
