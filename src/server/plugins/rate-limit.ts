import { AppError } from '../errors';

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

  /** Whether the limit is used up, without counting. */
  isBlocked(key: string, limit: number): { blocked: false } | { blocked: true; retryAfterSeconds: number } {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now || window.count < limit) return { blocked: false };
    return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
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
