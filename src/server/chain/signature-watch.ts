/**
 * Confirmations heard over the cluster's WebSocket (`SOLANA_WS_URL`, else derived from
 * SOLANA_RPC_URL; decision 068): a confirmation wait polls `getSignatureStatuses`, and a
 * `signatureNotifications` subscription wakes it as soon as the cluster says the transaction
 * reached the commitment. Polling stays the truth (a dropped socket only makes the wait poll).
 */
import type { Commitment, RpcSubscriptions, Signature, SignatureNotificationsApi } from '@solana/kit';

const watchers = new WeakMap<object, RpcSubscriptions<SignatureNotificationsApi>>();

/** Confirmations of transactions sent through `rpc` are also heard on `subscriptions`. */
export function watchSignaturesOn(
  rpc: object,
  subscriptions: RpcSubscriptions<SignatureNotificationsApi>,
): void {
  watchers.set(rpc, subscriptions);
}

/**
 * Resolves when the cluster notifies that `signature` reached `commitment`; never when `rpc` has
 * no WebSocket or the subscription fails. Ends with `signal`.
 */
export function notifiedOf(
  rpc: object,
  signature: Signature,
  commitment: Commitment,
  signal: AbortSignal,
): Promise<void> {
  const subscriptions = watchers.get(rpc);
  if (!subscriptions) return new Promise(() => {});
  return (async () => {
    try {
      const notifications = await subscriptions
        .signatureNotifications(signature, { commitment })
        .subscribe({ abortSignal: signal });
      for await (const _ of notifications) return;
    } catch {
      // The socket is an accelerator: polling goes on without it.
    }
    await new Promise(() => {});
  })();
}

/** The PubSub URL a provider serves beside `httpUrl`: ws(s), and the next port on a local validator. */
export function pubSubUrlOf(httpUrl: string): string {
  const url = new URL(httpUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString();
}
