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
  /** The same, per client address: one client's flood cannot spend another's share. */
  busyMsPerClientPerSecond: 100,
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
/** Expensive requests one client may have waiting their turn. */
export const MAX_WAITING_PER_CLIENT = 50;
/** Expensive requests waiting, all clients together, past which only wallet methods still wait. */
const MAX_WAITING = 1000;

/**
 * What a wallet needs to pay and see it land: refused only for its own client's spending, never
 * because others spent the shared budget (the confirmation reads, getSignatureStatuses,
 * getLatestBlockhash, getBalance, getAccountInfo, are cheap and never refused at all).
 */
export const WALLET_METHODS = new Set(['sendTransaction', 'simulateTransaction']);

const refusal = () =>
  new JsonRpcError(
    RATE_LIMITED,
    `Too many expensive requests to the embedded chain's RPC; retry in a second`,
  );

interface Job {
  method: string;
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Client {
  windowStart: number;
  spentMs: number;
  waiting: Job[];
}

/**
 * Budgets of synchronous work, per client address and for all clients together. Each expensive
 * request's time is charged to both: once a client has used `busyMsPerClientPerSecond` within its
 * current second, its expensive requests are refused until the next; once all clients together
 * have used `busyMsPerSecond`, everyone's expensive requests are refused except wallet methods,
 * which only their own client's spending refuses. Cheap reads (getSlot, getBalance, ...) are never
 * refused. Requests wait in a queue per client and are served one at a time, taking turns between
 * clients, so a client's flood waits behind itself, not in front of a wallet's payment.
 */
export class BusyBudget {
  private windowStart = 0;
  private spentMs = 0;
  private airdropWindowStart = 0;
  private airdrops = 0;
  private readonly clients = new Map<string, Client>();
  /** Clients with a request waiting, in turn order. */
  private readonly turns: string[] = [];
  private waiting = 0;
  private scheduled = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Runs `work` for `client` (its address): a cheap method at once; an expensive one in the
   * client's turn, one at a time over all clients, each after a full turn of the event loop, so
   * what waits for the app (its HTTP requests, timers) runs in between. Refused when the client's
   * queue is full, or (not a wallet method) when every client's together is.
   */
  run<T>(method: string, work: () => T, client = 'local'): T | Promise<T> {
    if (!EXPENSIVE_METHODS.has(method)) return work();
    const state = this.clientState(client);
    if (state.waiting.length >= MAX_WAITING_PER_CLIENT) throw refusal();
    if (this.waiting >= MAX_WAITING && !WALLET_METHODS.has(method)) throw refusal();
    return new Promise<T>((resolve, reject) => {
      state.waiting.push({ method, work, resolve: resolve as (value: unknown) => void, reject });
      this.waiting += 1;
      if (state.waiting.length === 1) this.turns.push(client);
      this.schedule();
    });
  }

  private clientState(client: string): Client {
    let state = this.clients.get(client);
    if (!state) {
      state = { windowStart: 0, spentMs: 0, waiting: [] };
      this.clients.set(client, state);
    }
    return state;
  }

  private schedule(): void {
    if (this.scheduled || this.turns.length === 0) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.serveNext();
      this.schedule();
    }, 0);
  }

  /** The next client in turn gets one request served; it goes to the back if it has more. */
  private serveNext(): void {
    const client = this.turns.shift();
    if (client === undefined) return;
    const state = this.clients.get(client)!;
    const job = state.waiting.shift()!;
    this.waiting -= 1;
    if (state.waiting.length > 0) this.turns.push(client);
    try {
      job.resolve(this.charge(job.method, job.work, state));
    } catch (error) {
      job.reject(error);
    }
    if (this.clients.size > MAX_WAITING) this.forgetIdleClients();
  }

  /** Clients with nothing waiting and a window over are as good as new: many addresses cannot grow the map. */
  private forgetIdleClients(): void {
    const now = this.now();
    for (const [client, state] of this.clients)
      if (state.waiting.length === 0 && now - state.windowStart >= RPC_BUDGET_WINDOW_MS)
        this.clients.delete(client);
  }

  private charge<T>(method: string, work: () => T, client: Client): T {
    const started = this.now();
    if (started - this.windowStart >= RPC_BUDGET_WINDOW_MS) {
      this.windowStart = started;
      this.spentMs = 0;
    }
    if (started - client.windowStart >= RPC_BUDGET_WINDOW_MS) {
      client.windowStart = started;
      client.spentMs = 0;
    }
    if (client.spentMs >= RPC_LIMITS.busyMsPerClientPerSecond) throw refusal();
    if (this.spentMs >= RPC_LIMITS.busyMsPerSecond && !WALLET_METHODS.has(method)) throw refusal();
    if (method === 'requestAirdrop') this.countAirdrop(started);
    try {
      return work();
    } finally {
      const spent = this.now() - started;
      this.spentMs += spent;
      client.spentMs += spent;
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
