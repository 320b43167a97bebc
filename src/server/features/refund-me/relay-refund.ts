/** The payer's signed refund relayed (only the one prepared for them), confirmed, then booked. */
import type { Address, Signature } from '@solana/kit';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import type { ChainPort } from '#server/chain/port';
import { AppError, conflict } from '#server/errors';
import type { RelayMessages } from '#server/prepared-transactions/prepared';
import { RATE_LIMITS } from '#server/rate-limits';
import { limitPayer, type Payer } from './payer';
import type { RefundMe } from './refund-me-deps';
import { dareVault } from './refundable';

const RELAY_MESSAGES: RelayMessages = {
  unreadable: REFUND_ME_MESSAGES.unreadable,
  notPrepared: REFUND_ME_MESSAGES.notPrepared,
  notAsPrepared: REFUND_ME_MESSAGES.notAsPrepared,
  badSignature: REFUND_ME_MESSAGES.badSignature,
  expired: REFUND_ME_MESSAGES.expired,
  failed: REFUND_ME_MESSAGES.failed,
  unconfirmed: REFUND_ME_MESSAGES.unconfirmed,
  noFee: REFUND_ME_MESSAGES.noFee,
};

/** What the landed refund gave its payer (the fee payer): its balance change plus the fee. */
async function refundedAmount({ rpc }: ChainPort, signature: Signature, payer: Address): Promise<bigint> {
  const landed = await rpc
    .getTransaction(signature, {
      commitment: 'confirmed',
      encoding: 'json',
      maxSupportedTransactionVersion: 0,
    })
    .send();
  const meta = landed?.meta;
  // The payer is the fee payer: the first account.
  const index = 0;
  if (!meta || landed.transaction.message.accountKeys[index] !== payer) return 0n;
  return BigInt(meta.postBalances[index]!) - BigInt(meta.preBalances[index]!) + BigInt(meta.fee);
}

export async function relayRefund(
  refundMe: RefundMe,
  payer: Payer,
  dareId: number,
  signedTransaction: string,
) {
  const { wallet } = payer;
  await limitPayer(refundMe, 'refund-relay', payer, RATE_LIMITS.relayedWalletTransactions);
  const vault = await dareVault(refundMe, dareId);
  if (!vault) throw conflict(REFUND_ME_MESSAGES.noVault);
  const signature = await refundMe.prepared.relay(
    { kind: 'refund', vault, wallet, userId: payer.userId },
    signedTransaction,
    RELAY_MESSAGES,
  );
  try {
    await refundMe.booking.bookOutsideRefunds({ escrowWallet: vault, dareId });
  } catch (error) {
    // The refund is on chain whatever the books say; the refunds job notices it again.
    refundMe.onBookingFailed(error);
  }
  const amount = await refundedAmount(refundMe.chain, signature, wallet);
  if (amount <= 0n)
    throw new AppError('TRANSACTION_FAILED', REFUND_ME_MESSAGES.failed('nothing was refunded'));
  return { signature, amount: amount.toString() };
}
