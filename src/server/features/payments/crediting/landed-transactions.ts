import {
  getBase58Decoder,
  getTransactionDecoder,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from '@solana/kit';
import { messageHash } from '#server/chain/relay';

/** A transaction the chain holds (at `confirmed` or stronger), as the payment checks read it. */
export interface LandedTransaction {
  signature: string;
  slot: bigint;
  /** The node's error when it failed on chain, else null. */
  err: unknown;
  /** SHA-256 of its message: the payment intent it is (messageHash of the server-built bytes). */
  messageHash: string;
}

/** Signatures are 64 bytes in base58; anything else is not one, and the node is not asked. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

/**
 * The landed transaction with this signature, or null when the chain does not know it (unknown,
 * forged, not confirmed yet, malformed). Read as wire bytes: the message is compared byte for
 * byte with what the server built, so nothing in it can differ from what was checked at build time.
 */
export async function fetchLandedTransaction(
  rpc: Rpc<SolanaRpcApi>,
  signature: string,
): Promise<LandedTransaction | null> {
  if (!SIGNATURE.test(signature)) return null;
  let answer: Awaited<ReturnType<ReturnType<typeof getTransactionBase64>['send']>>;
  try {
    answer = await getTransactionBase64(rpc, signature as Signature).send();
  } catch {
    // A signature the node cannot parse is the same answer as one that never landed.
    return null;
  }
  if (!answer?.meta) return null;
  const wire = Buffer.from(answer.transaction[0], 'base64');
  const decoded = getTransactionDecoder().decode(wire);
  // The transaction's id is its fee payer's signature, the first one.
  const first = Object.values(decoded.signatures)[0];
  if (!first || getBase58Decoder().decode(first) !== signature) return null;
  return {
    signature,
    slot: BigInt(answer.slot),
    err: answer.meta.err,
    messageHash: messageHash(new Uint8Array(decoded.messageBytes)),
  };
}

function getTransactionBase64(rpc: Rpc<SolanaRpcApi>, signature: Signature) {
  return rpc.getTransaction(signature, {
    encoding: 'base64',
    commitment: 'confirmed',
    maxSupportedTransactionVersion: 0,
  });
}
