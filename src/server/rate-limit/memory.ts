import {
  type HitAllVerdict,
  type HitVerdict,
  type LimitRule,
  type RateLimit,
  type RateLimiter,
  retryAfterSeconds,
  type SlotLimit,
} from './port';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters in this process's memory: the limiter without REDIS_URL, and the one a
 * Redis limiter counts in while Redis does not answer. With several instances each keeps its own
 * counts, so the effective limit is per instance (docs/operations.md).
 *
 * The `…Now` methods are synchronous, so concurrent requests cannot all pass a check before any of
 * them counts; the async ones wrap them for the RateLimiter interface.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  /** Per key: each holder's slot and when its lease ends. */
  private readonly slots = new Map<string, Map<string, number>>();
  private sweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, rule: RateLimit): Promise<HitVerdict> {
    return this.hitNow(key, rule);
  }

  async hitAll(rules: readonly LimitRule[]): Promise<HitAllVerdict> {
    return this.hitAllNow(rules);
  }

  async release(key: string): Promise<void> {
    this.releaseNow(key);
  }

  async takeSlot(key: string, holder: string, rule: SlotLimit): Promise<boolean> {
    return this.takeSlotNow(key, holder, rule);
  }

  async renewSlots(key: string, holders: readonly string[], rule: SlotLimit): Promise<void> {
    const now = this.now();
    let held = this.slots.get(key);
    if (!held) {
      held = new Map();
      this.slots.set(key, held);
    }
    for (const holder of holders) held.set(holder, now + rule.leaseMs);
  }

  async freeSlot(key: string, holder: string): Promise<void> {
    this.freeSlotNow(key, holder);
  }

  state() {
    return { store: 'memory', ok: true } as const;
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.slots.clear();
  }

  takeSlotNow(key: string, holder: string, { limit, leaseMs }: SlotLimit): boolean {
    const now = this.now();
    let held = this.slots.get(key);
    if (!held) {
      held = new Map();
      this.slots.set(key, held);
    }
    for (const [other, until] of held) if (until <= now) held.delete(other);
    if (!held.has(holder) && held.size >= limit) return false;
    held.set(holder, now + leaseMs);
    return true;
  }

  freeSlotNow(key: string, holder: string): void {
    const held = this.slots.get(key);
    if (!held) return;
    held.delete(holder);
    if (held.size === 0) this.slots.delete(key);
  }

  hitNow(key: string, { limit, windowMs }: RateLimit): HitVerdict {
    const now = this.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= limit) {
      return { allowed: false, retryAfterSeconds: retryAfterSeconds(window.resetAt - now) };
    }
    window.count += 1;
    return { allowed: true };
  }

  hitAllNow(rules: readonly LimitRule[]): HitAllVerdict {
    const now = this.now();
    this.sweep(now);
    for (const rule of rules) {
      const window = this.windows.get(rule.key);
      if (window && window.resetAt > now && window.count >= rule.limit) {
        return { allowed: false, key: rule.key, retryAfterSeconds: retryAfterSeconds(window.resetAt - now) };
      }
    }
    for (const rule of rules) this.hitNow(rule.key, rule);
    return { allowed: true };
  }

  releaseNow(key: string): void {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count > 0) window.count -= 1;
  }

  private sweep(now: number) {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
