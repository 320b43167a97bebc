import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Database } from './db/client';

/**
 * What instances tell each other, one channel per kind of news: chat events (features/chat/bus.ts),
 * "a write happened, forget your cached pages" (plugins/read-cache.ts), and new notifications'
 * id ranges, which the database itself publishes when their transaction commits
 * (features/notifications/repo.ts, pg_notify).
 */
export const BUS_CHANNELS = ['darepool_chat', 'darepool_reads', 'darepool_notifications'] as const;
export type BusChannel = (typeof BUS_CHANNELS)[number];
/**
 * "A write happened on some instance" (any successful non-GET API request, plugins/read-cache.ts):
 * whoever caches what writes change forgets it on this news.
 */
export const WRITES_CHANNEL: BusChannel = 'darepool_reads';

/**
 * Carries events to every server instance, this one included. Embedded (PGlite, one process) it is
 * an in-process emitter; on PostgreSQL it is LISTEN/NOTIFY on the shared database, so what
 * instance A publishes reaches instance B.
 */
export interface InstanceBus {
  publish(channel: BusChannel, payload: unknown): Promise<void>;
  subscribe(channel: BusChannel, handler: (payload: unknown) => void): void;
  /** False while the listener is down, when events from other instances are being missed. */
  isListening(): boolean;
  /** Told each time the listener is back after a drop: whatever was published meanwhile was missed. */
  onResumed(listener: () => void): void;
  /** Resolves once events from other instances can arrive (LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createLocalBus(): InstanceBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, payload) {
      // Asynchronous like NOTIFY, so both adapters order sends and deliveries the same way.
      queueMicrotask(() => emitter.emit(channel, payload));
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
    },
    isListening: () => true,
    onResumed() {},
    ready: async () => {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const RECONNECT_MS = 1000;

/**
 * LISTEN on a dedicated connection (a pooled one could be handed to a query and lose the
 * subscription); NOTIFY through the pool. A dropped listener reconnects, and says so through
 * `onResumed`: chat messages sent meanwhile reach the sockets' history on their next load, cached
 * pages are forgotten.
 */
export function createPostgresBus(pool: pg.Pool, log: (error: Error) => void = () => {}): InstanceBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const resumed: (() => void)[] = [];
  let client: pg.Client | null = null;
  let everConnected = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<void>;

  const connect = async () => {
    const next = new pg.Client(pool.options);
    next.on('notification', (notification) => {
      const channel = notification.channel as BusChannel;
      if (!BUS_CHANNELS.includes(channel) || !notification.payload) return;
      let payload: unknown;
      try {
        payload = JSON.parse(notification.payload);
      } catch {
        return;
      }
      emitter.emit(channel, payload);
    });
    const retry = (error: Error) => {
      log(error);
      next.removeAllListeners('error');
      next.end().catch(() => {});
      if (client === next) client = null;
      if (!closed && !timer) {
        timer = setTimeout(() => {
          timer = null;
          ready = connect().catch(() => {});
        }, RECONNECT_MS);
      }
    };
    next.on('error', retry);
    try {
      await next.connect();
      for (const channel of BUS_CHANNELS) await next.query(`LISTEN ${channel}`);
      client = next;
      if (everConnected) for (const listener of resumed) listener();
      everConnected = true;
    } catch (error) {
      retry(error as Error);
    }
  };
  ready = connect();

  return {
    async publish(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, JSON.stringify(payload)]);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
    },
    isListening: () => client !== null,
    onResumed(listener) {
      resumed.push(listener);
    },
    ready: () => ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await ready;
      emitter.removeAllListeners();
      await client?.end().catch(() => {});
    },
  };
}

/** LISTEN/NOTIFY when the database is a PostgreSQL server other instances can share, in-process otherwise. */
export async function openInstanceBus(database: Database, log: (error: Error) => void): Promise<InstanceBus> {
  const bus =
    database.kind === 'postgres' && database.pool ? createPostgresBus(database.pool, log) : createLocalBus();
  // Embedded, what the database publishes itself (pg_notify at commit) is heard through PGlite.
  if (database.kind === 'pglite' && database.pglite) {
    const pglite = database.pglite;
    await pglite.listen('darepool_notifications', (payload) => {
      try {
        void bus.publish('darepool_notifications', JSON.parse(payload));
      } catch {}
    });
  }
  await bus.ready();
  return bus;
}
