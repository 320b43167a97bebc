import { createClient } from 'redis';
import { MemoryRateLimiter } from './memory';
import {
  type HitAllVerdict,
  type HitVerdict,
  type LimiterState,
  type LimitRule,
  limitsUnavailable,
  type RateLimit,
  type RateLimiter,
  retryAfterSeconds,
  type SlotLimit,
} from './port';
import { describeRedisUrl } from './redis-url';

/**
 * The memory limiter's fixed windows, in one atomic step for all of a request's keys: if any key
 * is used up nothing is counted and its index and remaining milliseconds are returned, else every
 * key is counted and a key's first event starts its window. A key somehow left without an expiry
 * gets one, so no counter can outlive its window.
 * KEYS: the counters; ARGV: limit and windowMs for each key in turn. Returns {allowed, index, pttl}.
 */
const HIT_ALL = `
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[2 * i - 1]) then
    return {0, i, redis.call('PTTL', key)}
  end
end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 or redis.call('PTTL', key) < 0 then
    redis.call('PEXPIRE', key, ARGV[2 * i])
  end
end
return {1, 0, 0}
`;

/** Gives back one event of a live window; an expired or absent key stays absent. */
const RELEASE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/**
 * Slots as a sorted set: each holder scored by the end of its lease, on Redis's own clock (every
 * instance agrees on it). Expired holders are dropped first, then a new holder gets a slot while
 * fewer than `limit` hold one. KEYS: the set; ARGV: holder, limit, leaseMs. Returns 1 if taken.
 */
const TAKE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** New lease ends for held slots. KEYS: the set; ARGV: leaseMs, then the holders. */
const RENEW_SLOTS = `
local t = redis.call('TIME')
local until_ = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], until_, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0
`;

/** What the limiter tells the log: once when Redis stops answering, once when it is back. */
export interface LimiterLog {
  info(message: string): void;
  error(message: string): void;
}

export interface RedisLimiterOptions {
  url: string;
  /** Put before every key, so deployments (or test runs) can share one Redis. */
  keyPrefix: string;
  /** The app's clock, for the counts kept here while Redis does not answer. */
  now: () => number;
  log: LimiterLog;
  /** A command unanswered this long counts as Redis not answering. */
  commandTimeoutMs?: number;
}

const CONNECT_TIMEOUT_MS = 2000;
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * Counters shared by every instance, in one Redis (a single server or a primary; not Redis
 * Cluster: one request's keys must be on one node). While Redis does not answer, a rule that says
 * `refuse` answers 503 (sign-in, payments) and the others count in this instance's memory.
 * Resolves once connected, or once the first attempt failed (it keeps trying in the background).
 */
export async function createRedisRateLimiter(options: RedisLimiterOptions): Promise<RateLimiter> {
  const { keyPrefix, log } = options;
  const where = describeRedisUrl(options.url);
  const local = new MemoryRateLimiter(options.now);
  const client = createClient({
    url: options.url,
    // Fail at once while disconnected instead of queueing requests behind a dead connection.
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 1000 },
    // A connection that silently stops answering is noticed within seconds, not at the next timeout.
    pingInterval: 5000,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (attempt) => Math.min(100 * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
    },
  });

  let answering = false;
  let reported: 'up' | 'down' | null = null;
  const markDown = (error: unknown) => {
    answering = false;
    if (reported === 'down') return;
    reported = 'down';
    const reason = error instanceof Error ? error.message : String(error);
    log.error(
      `Redis at ${where} does not answer (${reason}): sign-in and payments answer 503, and the other rate limits count per instance, until it is back`,
    );
  };
  const markUp = () => {
    answering = true;
    if (reported === 'down')
      log.info(`Redis at ${where} answers again: rate limits are shared across instances again`);
    reported = 'up';
  };

  const firstAttempt = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
    setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
  });
  client.on('ready', markUp);
  // Emitted for every failed (re)connection attempt; markDown logs only the first of an outage.
  client.on('error', markDown);
  client.connect().catch(markDown);
  await firstAttempt;

  const counterKey = (key: string) => `${keyPrefix}rate:${key}`;
  const slotsKey = (key: string) => `${keyPrefix}slots:${key}`;

  async function hitAll(rules: readonly LimitRule[]): Promise<HitAllVerdict> {
    let reply: unknown;
    try {
      reply = await client.eval(HIT_ALL, {
        keys: rules.map((rule) => counterKey(rule.key)),
        arguments: rules.flatMap((rule) => [String(rule.limit), String(rule.windowMs)]),
      });
    } catch (error) {
      markDown(error);
      if (rules.some((rule) => rule.ifStoreDown === 'refuse')) throw limitsUnavailable();
      return local.hitAllNow(rules);
    }
    markUp();
    const [allowed, index, pttl] = reply as [number, number, number];
    if (allowed === 1) return { allowed: true };
    const rule = rules[index - 1]!;
    return { allowed: false, key: rule.key, retryAfterSeconds: retryAfterSeconds(Math.max(0, pttl)) };
  }

  return {
    hitAll,

    async hit(key: string, rule: RateLimit): Promise<HitVerdict> {
      const verdict = await hitAll([{ ...rule, key }]);
      return verdict.allowed ? verdict : { allowed: false, retryAfterSeconds: verdict.retryAfterSeconds };
    },

    async release(key: string): Promise<void> {
      try {
        await client.eval(RELEASE, { keys: [counterKey(key)] });
        markUp();
      } catch (error) {
        markDown(error);
        local.releaseNow(key);
      }
    },

    async takeSlot(key: string, holder: string, rule: SlotLimit): Promise<boolean> {
      try {
        const taken = await client.eval(TAKE_SLOT, {
          keys: [slotsKey(key)],
          arguments: [holder, String(rule.limit), String(rule.leaseMs)],
        });
        markUp();
        return taken === 1;
      } catch (error) {
        markDown(error);
        return local.takeSlotNow(key, holder, rule);
      }
    },

    async renewSlots(key: string, holders: readonly string[], rule: SlotLimit): Promise<void> {
      if (holders.length === 0) return;
      await local.renewSlots(key, holders, rule);
      try {
        await client.eval(RENEW_SLOTS, {
          keys: [slotsKey(key)],
          arguments: [String(rule.leaseMs), ...holders],
        });
        markUp();
      } catch (error) {
        markDown(error);
      }
    },

    async freeSlot(key: string, holder: string): Promise<void> {
      // Taken here or in Redis, depending on whether Redis answered then: freed in both.
      local.freeSlotNow(key, holder);
      try {
        await client.zRem(slotsKey(key), holder);
        markUp();
      } catch (error) {
        markDown(error);
      }
    },

    state(): LimiterState {
      return { store: 'redis', ok: answering };
    },

    async close(): Promise<void> {
      client.removeAllListeners();
      // Swallow what a reconnecting client may still emit while it goes down.
      client.on('error', () => {});
      if (client.isReady) await client.close().catch(() => {});
      else if (client.isOpen) client.destroy();
      await local.close();
    },
  };
}
