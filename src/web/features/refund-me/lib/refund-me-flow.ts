import type { RefundResponse } from '#contract/refund-me';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { signBase64Transaction } from '#web/lib/payments/sign-transaction';

export interface RefundMeDeps {
  requestTransaction(dareId: number): Promise<{ transaction: string }>;
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
): Promise<RefundResponse> {
  const { transaction } = await deps.requestTransaction(input.dareId);
  const signer = await deps.connectWallet(input.walletAddress);
  return deps.send(input.dareId, await signBase64Transaction(signer, transaction));
}
