/**
 * The one path of a transaction the server signed itself (a payout, a refund, the record closes,
 * a propose nonce): sent with preflight, then confirmed while the same bytes go again every so
 * often (rebroadcast.ts), given up once its blockhash can no longer land. What a wallet signed is
 * relayed through relay.ts instead (docs/decisions/045-one-relay.md). Failures are the
 * confirmation's (`ConfirmationError`) or the send's own error, for the caller to tell in its words.
 */
import type { Base64EncodedWireTransaction, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import { waitForConfirmation } from './confirmation';
import { sendSignedTransaction } from './payout-transactions';
import { whileRebroadcasting } from './rebroadcast';

/** Signed bytes the server made, with their id and the last block height they can land at. */
export interface ServerSigned {
  base64: string;
  signature: Signature;
  lastValidBlockHeight: bigint;
}

export interface ServerSendOptions {
  timeoutMs: number;
  /** How often the confirmation is polled (confirmation.ts's default otherwise). */
  intervalMs?: number;
}

/** Waits until a sent server-signed transaction is confirmed, sending it again meanwhile. */
export async function confirmServerSigned(
  rpc: Rpc<SolanaRpcApi>,
  transaction: ServerSigned,
  { timeoutMs, intervalMs }: ServerSendOptions,
): Promise<void> {
  await whileRebroadcasting(
    rpc,
    transaction.base64,
    waitForConfirmation(rpc, transaction.signature, {
      commitment: 'confirmed',
      timeoutMs,
      ...(intervalMs === undefined ? {} : { intervalMs }),
      lastValidBlockHeight: transaction.lastValidBlockHeight,
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
