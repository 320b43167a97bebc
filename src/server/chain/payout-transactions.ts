import {
  type Address,
  appendTransactionMessageInstruction,
  type Base64EncodedWireTransaction,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { memoInstruction } from './memo';

export interface SignedPayout {
  /** Known before sending: the first signature (the fee payer's) is the transaction's id. */
  signature: Signature;
  wire: Base64EncodedWireTransaction;
  lastValidBlockHeight: bigint;
}

/**
 * A transfer out of an escrow: the escrow signs as the source, the platform fee payer signs and
 * pays the fee, so exactly `lamports` leave the escrow. Signed here, sent separately, so the
 * caller can store the signature and bytes first.
 */
export async function signPayoutTransaction(
  rpc: Rpc<SolanaRpcApi>,
  options: {
    escrow: KeyPairSigner;
    feePayer: KeyPairSigner;
    recipient: Address;
    lamports: bigint;
    /** Makes each attempt a distinct transaction (see memoInstruction). */
    memo?: string;
  },
): Promise<SignedPayout> {
  const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(options.feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) =>
      appendTransactionMessageInstruction(
        getTransferSolInstruction({
          source: options.escrow,
          destination: options.recipient,
          amount: options.lamports,
        }),
        m,
      ),
    (m) => (options.memo ? appendTransactionMessageInstruction(memoInstruction(options.memo), m) : m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  };
}

/**
 * Sends signed bytes with preflight: the node simulates first, so a transfer that would fail
 * (rent, funds) is refused without costing the fee payer anything.
 */
export async function sendSignedTransaction(
  rpc: Rpc<SolanaRpcApi>,
  wire: Base64EncodedWireTransaction,
): Promise<Signature> {
  return rpc.sendTransaction(wire, { encoding: 'base64', preflightCommitment: 'confirmed' }).send();
}
