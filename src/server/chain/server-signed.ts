/**
 * The one path of signed bytes to the chain. A transaction the server signed itself (a payout, a
 * refund, the record closes, a propose nonce) is sent with preflight, then confirmed while the
 * same bytes go again every so often (rebroadcast.ts), given up once its blockhash can no longer
 * land. What a wallet signed is relayed through relay.ts (docs/decisions/045-one-relay.md), which
 * takes these same two steps; so does a caller that answers a refused send itself (payouts' stored
 * transfers). Failures are the confirmation's (`ConfirmationError`) or the send's own error, for
 * the caller to tell in its words.
 */
import type { Base64EncodedWireTransaction, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { waitForConfirmation } from './confirmation';
import { SEND_OPTIONS, whileRebroadcasting } from './rebroadcast';

/** Signed bytes the server made, with their id and the last block height they can land at. */
export interface ServerSigned {
  base64: string;
  signature: Signature;
  lastValidBlockHeight: bigint;
}

/** Signed bytes sent before; a relay does not always know their blockhash's last valid height. */
export type SentTransaction = Omit<ServerSigned, 'lastValidBlockHeight'> & { lastValidBlockHeight?: bigint };

export interface ServerSendOptions {
  timeoutMs: number;
  /** How often the confirmation is polled (confirmation.ts's default otherwise). */
  intervalMs?: number;
}

/**
 * Sends signed bytes with preflight: the node simulates first, so a transaction that would fail
 * (a vault already settled, an empty fee payer) is refused without costing anything.
 */
export async function sendSignedTransaction(
  rpc: Rpc<SolanaRpcApi>,
  wire: Base64EncodedWireTransaction,
): Promise<Signature> {
  return rpc.sendTransaction(wire, { ...SEND_OPTIONS, preflightCommitment: 'confirmed' }).send();
}

/** Waits until a sent transaction is confirmed, sending it again meanwhile. */
export async function confirmServerSigned(
  rpc: Rpc<SolanaRpcApi>,
  transaction: SentTransaction,
  { timeoutMs, intervalMs }: ServerSendOptions,
): Promise<void> {
  await whileRebroadcasting(
    rpc,
    transaction.base64,
    waitForConfirmation(rpc, transaction.signature, {
      commitment: 'confirmed',
      timeoutMs,
      ...(intervalMs === undefined ? {} : { intervalMs }),
      ...(transaction.lastValidBlockHeight === undefined
        ? {}
        : { lastValidBlockHeight: transaction.lastValidBlockHeight }),
    }),
  );
}

/** Sends a server-signed transaction (preflight first) and waits until it is confirmed. */
export async function sendServerSigned(
  rpc: Rpc<SolanaRpcApi>,
  transaction: ServerSigned,
  options: ServerSendOptions,
): Promise<void> {
  await sendSignedTransaction(rpc, transaction.base64 as Base64EncodedWireTransaction);
  await confirmServerSigned(rpc, transaction, options);
}
