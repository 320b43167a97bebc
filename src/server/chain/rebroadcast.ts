/**
 * A signed transaction is sent again every 2 s until it is confirmed, fails or can no longer land
 * (decision 068): on a busy cluster a leader may drop it, and the RPC node's own retries
 * (`maxRetries`) are off so that the server, which knows when to stop, is the one that retries.
 * Sending the same bytes again is safe: a signature lands at most once.
 */
import type { Base64EncodedWireTransaction, Rpc, SendTransactionApi } from '@solana/kit';

export const REBROADCAST_INTERVAL_MS = 2_000;

/** What every send of a signed transaction asks of the node: no retries of its own. */
export const SEND_OPTIONS = { encoding: 'base64', maxRetries: 0n } as const;

/**
 * Waits for `waiting` (the confirmation) while sending `wire` again every `intervalMs`, skipping
 * preflight (it ran at the first send). A resend's refusal (already processed, blockhash gone) is
 * not an answer: the confirmation is.
 */
export async function whileRebroadcasting<T>(
  rpc: Rpc<SendTransactionApi>,
  wire: string,
  waiting: Promise<T>,
  intervalMs: number = REBROADCAST_INTERVAL_MS,
): Promise<T> {
  let sending = false;
  const timer = setInterval(() => {
    if (sending) return;
    sending = true;
    rpc
      .sendTransaction(wire as Base64EncodedWireTransaction, { ...SEND_OPTIONS, skipPreflight: true })
      .send()
      .catch(() => {})
      .finally(() => {
        sending = false;
      });
  }, intervalMs);
  timer.unref();
  try {
    return await waiting;
  } finally {
    clearInterval(timer);
  }
}
