import { base64ToBytes, bytesToBase64 } from './base64';
import type { PaymentSigner } from './payment-wallet';

/** The server's unsigned base64 transaction, signed by the wallet (`solana:signTransaction`). */
export async function signBase64Transaction(signer: PaymentSigner, transaction: string): Promise<string> {
  return bytesToBase64(await signer.signTransaction(base64ToBytes(transaction)));
}
