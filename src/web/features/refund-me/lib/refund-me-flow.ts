import type { RefundResponse } from '#contract/refund-me';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { signBase64Transaction } from '#web/lib/payments/sign-transaction';

export interface RefundMeDeps {
  requestTransaction(dareId: number): Promise<{ transaction: string; amount?: string }>;
  connectWallet(walletAddress: string): Promise<PaymentSigner>;
  send(dareId: number, signedTransaction: string): Promise<RefundResponse>;
}

/**
 * 'Refund me': the server builds the `refund` of this wallet's receipt, the wallet signs it (it is
 * the fee payer, and no DarePool key signs), and the server relays it as signed and books it.
 */
export async function runRefundMe(
  input: { dareId: number; walletAddress: string },
  deps: RefundMeDeps,
): Promise<RefundResponse & { stake?: string }> {
  const { transaction, amount: stake } = await deps.requestTransaction(input.dareId);
  const signer = await deps.connectWallet(input.walletAddress);
  const sent = await deps.send(input.dareId, await signBase64Transaction(signer, transaction));
  // What the receipt held (the stake or contribution), so the rent coming back is named apart.
  return { ...sent, stake };
}

/**
 * '0.05 SOL back in your wallet, and 0.00172608 SOL of rent' (issue 37, item 8): what came back,
 * the stake and the rent apart, in lamports.
 */
export function refundedParts(result: { amount: string; stake?: string }): { stake: bigint; rent: bigint } {
  const total = BigInt(result.amount);
  const stake = result.stake === undefined ? total : BigInt(result.stake);
  return stake <= total ? { stake, rent: total - stake } : { stake: total, rent: 0n };
}
