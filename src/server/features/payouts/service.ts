import type { ChainPort } from '#server/chain/port';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { createRecordCloses } from './record-closes';
import { createRecovery } from './recovery';
import { hasSendingTransfer } from './repo';
import { createTransfers, type PayoutsDeps } from './transfers';
import { createVaultNotice } from './vault-notice';
import { createVaultRefunds } from './vault-refunds';
import { createVaultState } from './vault-state';
import { createWinnerPayouts } from './winner-payouts';

export { VaultStateError } from '#server/chain/escrow-program/app-transactions';
export type { BookedPayment } from './settle';
export {
  type PayoutOutcome,
  type PayoutsDeps,
  TransferAlreadyLive,
  type VaultPayout,
} from './transfers';
export type { VaultState } from './vault-state';
export { PayoutNotYetDue, V1_RETIRED } from './winner-payouts';

/**
 * Every lamport that leaves a dare's vault leaves through the escrow program, in transactions the
 * platform fee payer signs (with the moderator key for `cancel`; no key the server holds can move
 * a vault's SOL otherwise: v1's `settle` is retired, docs/decisions/050-retire-v1.md). The parts, each in its own module over the shared machinery of
 * transfers.ts (record, send, confirm, book): paying winners (winner-payouts.ts), refunds
 * (vault-refunds.ts), the record closes after a payout (record-closes.ts), recovery of
 * transactions a crash left 'sending' (recovery.ts), and booking what others sent
 * (vault-notice.ts). This module only puts them together under the names callers use.
 */
export function createPayoutsService(deps: PayoutsDeps) {
  const transfers = createTransfers(deps);
  const vaultState = createVaultState(deps);
  const closeSettledRecords = createRecordCloses(deps, { transfers, vaultState });
  const winners = createWinnerPayouts(deps, { transfers, closeSettledRecords });
  return {
    sendStored: transfers.sendStored,
    /** Whether a transaction out of this vault is on its way (recorded, not settled). */
    hasTransferOnItsWay: (escrowWallet: string) => hasSendingTransfer(deps.db, escrowWallet),
    prepareExecute: winners.prepareExecute,
    payWinners: winners.payWinners,
    refundVault: createVaultRefunds(deps, { transfers, vaultState }),
    closeSettledRecords,
    vaultState,
    noticeVaultPayments: createVaultNotice(deps, transfers),
    recover: createRecovery(deps, transfers),

    /** The platform fee payer's address and balance (lamports). */
    async feePayerBalance(): Promise<{ address: string; lamports: bigint }> {
      const signer = await deps.escrowKeys.feePayer();
      const { value } = await deps.chain.rpc.getBalance(signer.address, { commitment: 'confirmed' }).send();
      return { address: signer.address, lamports: value };
    },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;

/** What every service that moves money out through the payout machinery needs (claims, refunds). */
export interface PayingServiceDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  payouts: PayoutsService;
}
