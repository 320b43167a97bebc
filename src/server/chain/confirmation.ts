import type { Commitment, Rpc, Signature, SolanaRpcApi, TransactionError } from '@solana/kit';
import { abortableSleep } from './abortable-sleep';
import { notifiedOf } from './signature-watch';

export type ConfirmationFailure = 'failed' | 'expired' | 'timeout';

/** A transaction that did not reach the wanted commitment without error. */
export class ConfirmationError extends Error {
  override name = 'ConfirmationError';
  constructor(
    readonly reason: ConfirmationFailure,
    readonly signature: Signature,
    /** The on-chain error when `reason` is 'failed': the transaction landed and paid its fee. */
    readonly transactionError: TransactionError | null = null,
  ) {
    super(
      reason === 'failed'
        ? `Transaction ${signature} failed on chain: ${JSON.stringify(transactionError, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))}`
        : reason === 'expired'
          ? `Transaction ${signature} expired before it landed (its blockhash is no longer valid)`
          : `Transaction ${signature} was not confirmed in time`,
    );
  }
}

const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/**
 * Polls getSignatureStatuses until the transaction reaches `commitment`. kit's
 * sendAndConfirmTransaction needs WebSocket subscriptions, which a server should not depend on
 * (and the embedded chain does not offer): a cluster's WebSocket, when there is one
 * (signature-watch.ts), only cuts a pause short. With `lastValidBlockHeight` (from the blockhash the
 * transaction was built with) it gives up as soon as the transaction can no longer land, instead
 * of waiting for the timeout.
 */
export async function waitForConfirmation(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  options: {
    commitment?: Commitment;
    timeoutMs?: number;
    intervalMs?: number;
    lastValidBlockHeight?: bigint;
    abortSignal?: AbortSignal;
  } = {},
): Promise<{ slot: bigint; commitment: Commitment }> {
  const { commitment = 'confirmed', timeoutMs = 60_000, intervalMs = 500, abortSignal } = options;
  const deadline = Date.now() + timeoutMs;
  // A WebSocket notification (signature-watch.ts) ends a pause early; the poll below still decides.
  const listening = new AbortController();
  let heard = false;
  const notified = notifiedOf(rpc, signature, commitment, listening.signal).then(() => {
    heard = true;
  });
  try {
    return await poll();
  } finally {
    listening.abort();
  }

  async function poll(): Promise<{ slot: bigint; commitment: Commitment }> {
    for (;;) {
      abortSignal?.throwIfAborted();
      const { value } = await rpc
        .getSignatureStatuses([signature], { searchTransactionHistory: true })
        .send({ abortSignal });
      const status = value[0];
      if (status?.confirmationStatus && RANK[status.confirmationStatus] >= RANK[commitment]) {
        if (status.err) throw new ConfirmationError('failed', signature, status.err);
        return { slot: status.slot, commitment: status.confirmationStatus };
      }
      if (!status && options.lastValidBlockHeight !== undefined) {
        const blockHeight = await rpc.getBlockHeight({ commitment: 'confirmed' }).send({ abortSignal });
        if (blockHeight > options.lastValidBlockHeight) {
          // It may have landed between the two calls; only a last look tells.
          const { value: last } = await rpc
            .getSignatureStatuses([signature], { searchTransactionHistory: true })
            .send({ abortSignal });
          if (!last[0]) throw new ConfirmationError('expired', signature);
          continue;
        }
      }
      if (Date.now() >= deadline) throw new ConfirmationError('timeout', signature);
      const pause = abortableSleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())), abortSignal);
      pause.catch(() => {}); // A pause the notification cut short may still reject on abort.
      // Once heard, the next polls only pause: a lagging node must not make this spin.
      await (heard ? pause : Promise.race([pause, notified]));
    }
  }
}
