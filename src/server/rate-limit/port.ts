import { AppError } from '#server/errors';

/**
 * At most `limit` events per `windowMs`; rate-limits.ts lists every one the server applies.
 * `ifStoreDown` says what the limit does while the shared counters (Redis) do not answer:
 * `refuse` the action (503: sign-in and payments, where an unlimited minute is an attack window),
 * or `count-locally` in this instance's memory as a single instance would (reads and the rest).
 */
export interface RateLimit {
  limit: number;
  windowMs: number;
  ifStoreDown: 'refuse' | 'count-locally';
}

export interface LimitRule extends RateLimit {
  key: string;
}

/**
 * At most `limit` slots held at once per key (the sockets one address holds open). A slot lives
 * `leaseMs` unless renewed, so the slots of an instance that died free themselves.
 */
export interface SlotLimit {
  limit: number;
  leaseMs: number;
}

export type HitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };
export type HitAllVerdict = { allowed: true } | { allowed: false; key: string; retryAfterSeconds: number };

/** Where the counters are, for /api/health: this process (always ok), or Redis (ok while it answers). */
export interface LimiterState {
  store: 'memory' | 'redis';
  ok: boolean;
}

/**
 * Fixed-window counters: a key's window opens at its first event and lasts `windowMs`; an event
 * past the limit is refused without being counted. Both adapters answer exactly alike
 * (test/support/rate-limit/limiter-contract.ts); why no library does this for us: docs/decisions/080-rate-limiter-and-toasts-stay.md.
 */
export interface RateLimiter {
  /** Counts one event; says how long to wait when the limit is already used up. */
  hit(key: string, rule: RateLimit): Promise<HitVerdict>;
  /**
   * Counts one event on every rule's key, or on none when any of them is used up (then names the
   * first such one). Atomic: concurrent requests cannot all pass the check before any counts.
   */
  hitAll(rules: readonly LimitRule[]): Promise<HitAllVerdict>;
  /** Gives back one counted event, e.g. a sign-in attempt that turned out to be the owner's. */
  release(key: string): Promise<void>;
  /**
   * Takes a slot under `key` for `holder` (unique per holder, e.g. instance and socket); false when
   * `limit` other holders have one. While the store does not answer, slots count in this process.
   */
  takeSlot(key: string, holder: string, rule: SlotLimit): Promise<boolean>;
  /** Extends the lease of held slots (re-taking any the store forgot, e.g. after its restart). */
  renewSlots(key: string, holders: readonly string[], rule: SlotLimit): Promise<void>;
  /** Frees a slot (a socket closed). */
  freeSlot(key: string, holder: string): Promise<void>;
  state(): LimiterState;
  close(): Promise<void>;
}

export function tooManyRequests(message: string, retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    message,
    { retryAfter: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** Seconds a refused caller should wait, as Retry-After says it: whole seconds, at least 1. */
export function retryAfterSeconds(remainingMs: number): number {
  return Math.max(1, Math.ceil(remainingMs / 1000));
}

/** How long a caller refused because the counters do not answer should wait before trying again. */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;

export function limitsUnavailable(): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'Signing in and payments are paused for a moment: the server cannot reach its rate-limit service. Please try again in a few seconds.',
    { retryAfter: STORE_DOWN_RETRY_AFTER_SECONDS },
    { 'retry-after': String(STORE_DOWN_RETRY_AFTER_SECONDS) },
  );
}
