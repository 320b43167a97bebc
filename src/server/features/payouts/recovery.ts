import type { Signature } from '@solana/kit';
import { findSendingTransfers, type PayoutTransferRow } from './repo';
import { EXPIRED_REASON, type PayoutOutcome, type PayoutsDeps, type Transfers } from './transfers';

export function createRecovery({ db, chain }: PayoutsDeps, transfers: Transfers) {
  const { rpc } = chain;
  /**
   * Start-up recovery: every transaction still 'sending' (the process stopped between recording
   * and settling) is decided by its signature. Landed: booked. Failed on chain: released. Not
   * seen and its blockhash expired: looked up once more (it may have landed after the first
   * look, or the node lagged), and only then released as expired (the caller pays again with a
   * new transaction). Not seen but still valid: the same bytes are sent again.
   */
  return async function recover(): Promise<{ settled: PayoutTransferRow[]; outcomes: PayoutOutcome[] }> {
    const pending = await findSendingTransfers(db);
    const outcomes: PayoutOutcome[] = [];
    for (const transfer of pending) {
      const { value } = await rpc
        .getSignatureStatuses([transfer.signature as Signature], { searchTransactionHistory: true })
        .send();
      if (value[0]) {
        outcomes.push(await transfers.confirm(transfer));
        continue;
      }
      const height = await rpc.getBlockHeight({ commitment: 'confirmed' }).send();
      if (height > transfer.lastValidBlockHeight) {
        const { value: again } = await rpc
          .getSignatureStatuses([transfer.signature as Signature], { searchTransactionHistory: true })
          .send();
        if (again[0]) {
          outcomes.push(await transfers.confirm(transfer));
          continue;
        }
        await transfers.settleFailed(transfer, EXPIRED_REASON, 'expired');
        outcomes.push({ status: 'failed', reason: EXPIRED_REASON });
        continue;
      }
      outcomes.push(await transfers.sendStored(transfer));
    }
    return { settled: pending, outcomes };
  };
}
