/** The payer's `refund`, built for their wallet to sign and pay (no DarePool key signs it). */
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildRefundTransaction } from '#server/chain/escrow-program/app-transactions';
import { conflict } from '#server/errors';
import { RATE_LIMITS } from '#server/rate-limits';
import { limitPayer, type Payer } from './payer';
import type { RefundMe } from './refund-me-deps';
import { assessRefund, dareVault } from './refundable';

export async function refundTransaction(refundMe: RefundMe, payer: Payer, dareId: number) {
  const { chain, programs, prepared } = refundMe;
  const { wallet } = payer;
  await limitPayer(refundMe, 'refund', payer, RATE_LIMITS.walletTransactions);
  const vault = await dareVault(refundMe, dareId);
  const assessed = await assessRefund(refundMe, vault, wallet);
  if (!assessed.refundable || !vault) throw conflict(assessed.reason ?? REFUND_ME_MESSAGES.noVault);
  const row = await prepared.prepare(
    { kind: 'refund', vault, wallet, dareId, userId: payer.userId },
    async () => {
      const owner = await fetchVault(chain.rpc, programs, vault);
      if (!owner) throw conflict(REFUND_ME_MESSAGES.noVault);
      return buildRefundTransaction(chain.rpc, { programId: owner.programId, vault, payer: wallet });
    },
    async () => {
      const again = await assessRefund(refundMe, vault, wallet);
      if (!again.refundable) throw conflict(again.reason);
    },
  );
  return {
    transaction: row.wireTransaction,
    amount: assessed.amount.toString(),
    lastValidBlockHeight: row.lastValidBlockHeight.toString(),
  };
}
