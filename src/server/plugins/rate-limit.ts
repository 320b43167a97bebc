import { AppError } from '../errors';

export interface LimitRule {
  key: string;
  limit: number;
  windowMs: number;
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters in this process's memory. With several instances each keeps its own
 * counts, so the effective limit is per instance (docs/operations.md); good enough against
 * guessing, and no extra infrastructure for the embedded mode.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one event; returns the seconds to wait when the limit is already used up. */
  hit(
    key: string,
    limit: number,
    windowMs: number,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    }
    window.count += 1;
    return { allowed: true };
  }

  /**
   * Counts one event on every rule's key, or on none when any of them is used up (then names that
   * one). Synchronous, so concurrent requests cannot all pass a check before any of them counts.
   */
  hitAll(
    rules: readonly LimitRule[],
  ): { allowed: true } | { allowed: false; key: string; retryAfterSeconds: number } {
    const now = this.now();
    this.sweep(now);
    for (const rule of rules) {
      const window = this.windows.get(rule.key);
      if (window && window.resetAt > now && window.count >= rule.limit) {
        return {
          allowed: false,
          key: rule.key,
          retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
        };
      }
    }
    for (const rule of rules) this.hit(rule.key, rule.limit, rule.windowMs);
    return { allowed: true };
  }

  /** Gives back one counted event, e.g. a sign-in attempt that turned out to be the owner's. */
  release(key: string): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count > 0) window.count -= 1;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export function tooManyRequests(message: string, retryAfterSeconds: number): AppError {
  return new AppError(
    'RATE_LIMITED',
    message,
    { retryAfter: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}
