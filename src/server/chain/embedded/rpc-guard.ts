import { JsonRpcError } from './json-rpc';

/**
 * What keeps the served RPC (for wallets, the CLI and Solana Explorer) from taking down the app it
 * runs inside: every limit here applies to callers over HTTP and WebSocket, never to the app's own
 * in-process transport. Numbers follow agave's defaults where it has one (decision 031).
 */
export const RPC_LIMITS = {
  /** agave MAX_REQUEST_BODY_SIZE (50 KiB): room for 30 full transactions in one batch. */
  maxBodyBytes: 50 * 1024,
  /** Requests in one batch (hosted RPCs allow 100 at most; agave none, which is the attack). */
  maxBatchLength: 100,
  /** One HTTP answer, every request of a batch together. */
  maxAnswerBytes: 8 * 1024 * 1024,
  /** Milliseconds of synchronous work the served RPC may take per second, all callers together. */
  busyMsPerSecond: 250,
  /** requestAirdrop over RPC, per minute (the app's /api/dev/airdrop allows 30 per minute per IP). */
  airdropsPerMinute: 30,
} as const;

/** The only web origin allowed to read the served RPC from a page: Solana Explorer. */
export const EXPLORER_ORIGIN = 'https://explorer.solana.com';
/** Wallet extensions call the RPC from their own origin; no web page can send one of these. */
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[a-z0-9-]+$/i;

/** Whether a request carrying this Origin header may be answered (no header: not a browser page). */
export function isAllowedOrigin(origin: string | undefined): boolean {
  return origin === undefined || origin === EXPLORER_ORIGIN || EXTENSION_ORIGIN.test(origin);
}

/** Methods whose cost grows with the chain (scans, or long lists), metered by the busy budget. */
export const EXPENSIVE_METHODS = new Set([
  'getProgramAccounts',
  'getTokenAccountsByOwner',
  'getTokenAccountsByDelegate',
  'getTokenLargestAccounts',
  'getLeaderSchedule',
  'getSupply',
  'getLargestAccounts',
  'getSignaturesForAddress',
  'getMultipleAccounts',
  'getBlock',
  'getBlocks',
  'getBlocksWithLimit',
  'getRecentPerformanceSamples',
  'simulateTransaction',
  'sendTransaction',
  'requestAirdrop',
]);

const RATE_LIMITED = -32005;
/** The busy budget's window: `busyMsPerSecond` is spent and renewed per this many milliseconds. */
export const RPC_BUDGET_WINDOW_MS = 1000;
/** Expensive requests waiting their turn, all callers together. */
const MAX_WAITING = 200;

/**
 * A shared budget of synchronous work: each expensive request's time is charged; once callers have
 * used `busyMsPerSecond` within the current second, further expensive requests are refused until
 * the next one. Cheap reads (getSlot, getBalance, ...) are never refused.
 */
export class BusyBudget {
  private windowStart = 0;
  private spentMs = 0;
  private airdropWindowStart = 0;
  private airdrops = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  private queue: Promise<void> = Promise.resolve();
  private waiting = 0;

  /**
   * Runs `work`: a cheap method at once; an expensive one in turn, one at a time, each after a full
   * turn of the event loop, so what waits for the app (its HTTP requests, timers) runs in between
   * and never waits behind more than one of them. Refused when the budget or the queue is full.
   */
  run<T>(method: string, work: () => T): T | Promise<T> {
    if (!EXPENSIVE_METHODS.has(method)) return work();
    if (this.waiting >= MAX_WAITING) {
      throw new JsonRpcError(
        RATE_LIMITED,
        `Too many expensive requests to the embedded chain's RPC; retry in a second`,
      );
    }
    this.waiting += 1;
    const result = this.queue.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      this.waiting -= 1;
      return this.charge(method, work);
    });
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private charge<T>(method: string, work: () => T): T {
    const started = this.now();
    if (started - this.windowStart >= RPC_BUDGET_WINDOW_MS) {
      this.windowStart = started;
      this.spentMs = 0;
    }
    if (this.spentMs >= RPC_LIMITS.busyMsPerSecond) {
      throw new JsonRpcError(
        RATE_LIMITED,
        `Too many expensive requests to the embedded chain's RPC; retry in a second`,
      );
    }
    if (method === 'requestAirdrop') this.countAirdrop(started);
    try {
      return work();
    } finally {
      this.spentMs += this.now() - started;
    }
  }

  private countAirdrop(now: number): void {
    if (now - this.airdropWindowStart >= 60_000) {
      this.airdropWindowStart = now;
      this.airdrops = 0;
    }
    if (this.airdrops >= RPC_LIMITS.airdropsPerMinute) {
      throw new JsonRpcError(
        -32603,
        `airdrop request failed: at most ${RPC_LIMITS.airdropsPerMinute} airdrops a minute on this chain's RPC`,
      );
    }
    this.airdrops += 1;
  }
}
