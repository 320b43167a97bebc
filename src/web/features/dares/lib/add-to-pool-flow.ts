import type { AddPoolRequest, Dare } from '#contract/dares';
import { type CreateTransactionRequest, PAYMENT_MESSAGES } from '#contract/payments';
import { balanceUnavailableMessage, checkAffordable } from '#web/lib/payments/balance-check';
import { PaymentError } from '#web/lib/payments/payment-errors';
import { type PaymentSigner, WalletNotFoundError } from '#web/lib/payments/payment-wallet';
import { signBase64Transaction } from '#web/lib/payments/sign-transaction';

/** A contribution on chain whose credit call failed: a retry only repeats that call. */
export interface PaidContribution {
  dareId: number;
  walletAddress: string;
  amount: string;
  signature: string;
}

export interface AddToPoolDeps {
  checkBalance(walletAddress: string): Promise<bigint>;
  connectWallet(walletAddress: string): Promise<PaymentSigner>;
  createTransaction(request: CreateTransactionRequest): Promise<{ transaction: string }>;
  sendTransaction(signedTransaction: string): Promise<string>;
  addToPool(dareId: number, request: AddPoolRequest): Promise<Dare>;
}

/**
 * docs/product.md#add-to-pool-rules: a wallet is needed ('Please connect your wallet first'), installed
 * ('Phantom wallet not found'), and the dare needs its escrow ('Dare escrow wallet not found');
 * then the transfer is built by the server, signed in the wallet, relayed, and credited with its
 * signature. As in Create Dare, the balance is checked first: a wallet short of SOL is never
 * asked to sign. With `paid` for the same dare, wallet and amount, only the credit is repeated.
 */
export async function runAddToPool(
  input: {
    dare: Pick<Dare, 'id' | 'escrowWallet'>;
    amount: string;
    walletAddress: string | null;
    /** The cluster's label for the insufficient-balance message ('localnet', 'devnet'). */
    network: string;
    /**
     * The rent a first contribution lends for its receipt (/api/config's receiptRentSol), counted
     * by the balance check: the wallet pays it, and gets it back when the dare ends.
     */
    receiptRentSol?: string;
    /** The network fee now, priority fee included (/api/config's networkFeeSol); else the base fee. */
    networkFeeSol?: string;
    paid?: PaidContribution | null;
  },
  deps: AddToPoolDeps,
  onPaid: (paid: PaidContribution) => void = () => {},
): Promise<{ dare: Dare; signature: string }> {
  const { dare, amount, walletAddress } = input;
  if (!walletAddress) throw new PaymentError('Please connect your wallet first');
  if (!dare.escrowWallet) throw new PaymentError(PAYMENT_MESSAGES.escrowNotFound);

  let paid =
    input.paid?.dareId === dare.id &&
    input.paid.walletAddress === walletAddress &&
    input.paid.amount === amount
      ? input.paid
      : null;
  if (!paid) {
    const balance = await deps.checkBalance(walletAddress).catch(() => {
      throw new PaymentError(balanceUnavailableMessage(walletAddress));
    });
    const short = checkAffordable({
      balance,
      amount,
      network: input.network,
      walletAddress,
      rentSol: input.receiptRentSol,
      feeSol: input.networkFeeSol,
    });
    if (short) throw new PaymentError(short);
    const signer = await deps.connectWallet(walletAddress).catch((error: unknown) => {
      throw error instanceof WalletNotFoundError ? new PaymentError('Phantom wallet not found') : error;
    });
    const built = await deps.createTransaction({
      fromWallet: walletAddress,
      toWallet: dare.escrowWallet,
      amount,
    });
    const signature = await deps.sendTransaction(await signBase64Transaction(signer, built.transaction));
    paid = { dareId: dare.id, walletAddress, amount, signature };
    onPaid(paid);
  }
  const updated = await deps.addToPool(dare.id, {
    amount,
    userWallet: walletAddress,
    transactionSignature: paid.signature,
  });
  return { dare: updated, signature: paid.signature };
}
