/**
 * The HTTP transport to an RPC provider, as providers want to be used (decision 068): at most
 * SOLANA_RPC_MAX_RPS requests a second from this instance (a token bucket: a burst up to one
 * second's budget, then queued), a `429` waited out for its `Retry-After` (every request of the
 * instance waits with it: the provider throttles the key, not the call), a `5xx` retried after a
 * growing pause. Other answers (JSON-RPC errors included) and a node that does not answer at all
 * pass through at once: each caller has its own recovery for those.
 */
import {
  createDefaultRpcTransport,
  isSolanaError,
  type RpcTransport,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
} from '@solana/kit';
import { abortableSleep } from './abortable-sleep';

export interface ProviderTransportOptions {
  maxRequestsPerSecond: number;
  /** Retries of one request after a 429 or 5xx before its error is thrown. */
  maxRetries?: number;
  /** The first pause after a 5xx; doubled each time. */
  backoffMs?: number;
  /** The longest a `Retry-After` is honoured for in one wait. */
  maxRetryAfterMs?: number;
}

const DEFAULT_MAX_RETRIES = 4;
const DEFAULT_BACKOFF_MS = 250;
const DEFAULT_MAX_RETRY_AFTER_MS = 10_000;

/** `Retry-After` as milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Wraps a transport with the request budget and the retries (exported for tests with any transport). */
export function withProviderManners(inner: RpcTransport, options: ProviderTransportOptions): RpcTransport {
  const rate = options.maxRequestsPerSecond;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  let tokens = rate;
  let refilledAt = Date.now();
  /** Until when the provider asked the whole instance to wait (its last 429). */
  let pausedUntil = 0;

  /** Takes a token, waiting for one when the budget is spent (tokens below zero are a queue). */
  const turn = async (signal?: AbortSignal) => {
    const pause = pausedUntil - Date.now();
    if (pause > 0) await abortableSleep(pause, signal);
    const now = Date.now();
    tokens = Math.min(rate, tokens + ((now - refilledAt) / 1000) * rate);
    refilledAt = now;
    tokens -= 1;
    if (tokens < 0) await abortableSleep((-tokens / rate) * 1000, signal);
  };

  return (async (config: Parameters<RpcTransport>[0]) => {
    for (let attempt = 0; ; attempt++) {
      await turn(config.signal);
      try {
        return await inner(config);
      } catch (error) {
        if (attempt >= maxRetries || config.signal?.aborted) throw error;
        if (isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
          const { statusCode, headers } = error.context;
          if (statusCode === 429) {
            const wait = Math.min(
              retryAfterMs(headers.get('retry-after')) ?? backoffMs * 2 ** attempt,
              maxRetryAfterMs,
            );
            pausedUntil = Math.max(pausedUntil, Date.now() + wait);
            continue;
          }
          if (statusCode < 500) throw error;
          await abortableSleep(backoffMs * 2 ** attempt, config.signal);
          continue;
        }
        // No answer at all (refused, reset, aborted): the caller's own recovery decides, at once.
        throw error;
      }
    }
  }) as RpcTransport;
}

/** kit's default HTTP transport to `url`, with the provider's manners. */
export function createProviderTransport(url: string, options: ProviderTransportOptions): RpcTransport {
  return withProviderManners(createDefaultRpcTransport({ url }), options);
}
