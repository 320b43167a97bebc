import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { ChatMessage } from '../../../contract/chat';

/**
 * What instances tell each other: a stored message, how many sockets one has in each room, or
 * that a session was logged out (its sockets, wherever they are, stop speaking for it).
 */
export type ChatEvent =
  | { kind: 'message'; message: ChatMessage }
  | { kind: 'presence'; instance: string; rooms: Record<string, number> }
  | { kind: 'session-ended'; tokenHash: string };

/**
 * Carries chat events to every server instance, this one included. Embedded (PGlite, one
 * process) it is an in-process emitter; on PostgreSQL it is LISTEN/NOTIFY on the shared
 * database, so sockets on instance B hear what was sent to instance A.
 */
export interface ChatBus {
  publish(event: ChatEvent): Promise<void>;
  subscribe(handler: (event: ChatEvent) => void): void;
  /** Resolves once events from other instances can arrive (LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createLocalBus(): ChatBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(event) {
      // Asynchronous like NOTIFY, so both adapters order sends and deliveries the same way.
      queueMicrotask(() => emitter.emit('event', event));
    },
    subscribe(handler) {
      emitter.on('event', handler);
    },
    ready: async () => {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = 'darepool_chat';
const RECONNECT_MS = 1000;

/**
 * LISTEN on a dedicated connection (a pooled one could be handed to a query and lose the
 * subscription); NOTIFY through the pool. A dropped listener reconnects; messages sent while it
 * was down reach the sockets' history on their next load, not live.
 */
export function createPostgresBus(pool: pg.Pool, log: (error: Error) => void = () => {}): ChatBus {
  const handlers: ((event: ChatEvent) => void)[] = [];
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<void>;

  const connect = async () => {
    const next = new pg.Client(pool.options);
    next.on('notification', (notification) => {
      if (notification.channel !== CHANNEL || !notification.payload) return;
      let event: ChatEvent;
      try {
        event = JSON.parse(notification.payload) as ChatEvent;
      } catch {
        return;
      }
      for (const handler of handlers) handler(event);
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
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
    } catch (error) {
      retry(error as Error);
    }
  };
  ready = connect();

  return {
    async publish(event) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]);
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    ready: () => ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await ready;
      await client?.end().catch(() => {});
    },
  };
}
