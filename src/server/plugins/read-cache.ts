import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FrontDoorSlot } from '#server/http-server';
import { type InstanceBus, WRITES_CHANNEL } from '#server/instance-bus';

type Compute = () => Promise<{ body: unknown; headers?: Record<string, string> }>;

interface Entry {
  version: number;
  storedAt: number;
  /** The serialized answer as bytes: sent as they are, nothing encoded per request. */
  body: Buffer;
  etag: string;
  /** Everything a 200 with this copy says besides its body, and what a 304 says. */
  okHeaders: Record<string, string>;
  notModifiedHeaders: Record<string, string>;
  /** For the front door: every header of each answer, the security headers for a Host included. */
  byHost: Map<string, { ok: OutgoingHttpHeaders; notModified: OutgoingHttpHeaders }>;
}

export interface ReadCache {
  /**
   * Answers a public read from its serialized copy while nothing was written since, else computes
   * and stores it. Polls that send the copy's ETag get a bodiless 304.
   */
  serve(request: FastifyRequest, reply: FastifyReply, compute: Compute): Promise<FastifyReply>;
  /**
   * Forgets every copy, here and on every other instance: called after any successful write, and
   * by jobs that write on their own. Resolves once the other instances are told.
   */
  invalidate(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    readCache: ReadCache;
  }
  interface FastifyContextConfig {
    /** A non-GET route that writes nothing (a read sent as POST): its answers invalidate no cache. */
    readOnly?: boolean;
  }
}

const MAX_ENTRIES = 500;
/** Hosts whose full headers an entry keeps; others (odd Host headers) are put together per answer. */
const MAX_HOSTS_PER_ENTRY = 8;
/** The longest a cached page may trail time-driven changes: half the fastest poll (5 s). */
export const READ_CACHE_MAX_AGE_MS = 2500;

const CHANNEL = WRITES_CHANNEL;

/**
 * One entry per distinct answer: the path and the query as the route's schema parsed it (defaults
 * filled in, unknown parameters dropped, blank ones left out, in a fixed order), so
 * `/api/dares?filter=all`, `/api/dares?limit=50` and `/api/dares` share the copy they all answer.
 */
export function cacheKey(request: Pick<FastifyRequest, 'url' | 'query'>): string {
  const queryAt = request.url.indexOf('?');
  const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  const query = (request.query ?? {}) as Record<string, unknown>;
  const names = Object.keys(query)
    .filter((name) => query[name] !== undefined && query[name] !== '')
    .sort();
  return names.length === 0 ? path : `${path}?${JSON.stringify(names.map((name) => [name, query[name]]))}`;
}

export interface ReadCacheOptions {
  maxAgeMs: number;
  now: () => number;
  /** Carries invalidations to the other instances and theirs to this one. */
  bus: InstanceBus;
  /**
   * Where to put the front door that answers fresh copies before Fastify routes the request
   * (http-server.ts), with the headers every answer carries for a Host (the security headers).
   */
  frontDoor?: { slot: FrontDoorSlot; headersFor(host: string | undefined): Record<string, string> };
}

/**
 * Serialized pages of the hottest public reads (the dare list and the stats strip, polled by every
 * open page). Any successful non-GET API request (but a read sent as POST, `config.readOnly`)
 * invalidates them all, on this instance and, through the bus, on every other one before its
 * answer leaves, so a reader anywhere never sees a page older than the last write it could have
 * caused. `maxAgeMs` bounds what time alone changes
 * (a deadline passing, a background refund). While the bus's listener is down, invalidations from
 * other instances could be missed, so nothing is served from the cache until it is back.
 */
export const readCache = fp(async (app: FastifyInstance, options: ReadCacheOptions) => {
  const { maxAgeMs, now, bus, frontDoor } = options;
  const instance = randomUUID();
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, { version: number; promise: Promise<Entry> }>();
  const keysByUrl = new Map<string, string>();
  let version = 0;

  async function build(key: string, started: number, compute: Compute): Promise<Entry> {
    const computed = await compute();
    const body = Buffer.from(JSON.stringify(computed.body));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const notModifiedHeaders = { ...computed.headers, etag, 'cache-control': 'no-cache' };
    const entry: Entry = {
      version: started,
      storedAt: now(),
      body,
      etag,
      okHeaders: { ...notModifiedHeaders, 'content-type': 'application/json; charset=utf-8' },
      notModifiedHeaders,
      byHost: new Map(),
    };
    // A write during the computation may have changed the answer: serve it, keep it not.
    if (started === version && bus.isListening()) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, entry);
    }
    return entry;
  }

  /** Single flight: requests missing the same page together share one computation. */
  function computeOnce(key: string, compute: Compute): Promise<Entry> {
    const pending = inFlight.get(key);
    if (pending && pending.version === version) return pending.promise;
    const mine = { version, promise: build(key, version, compute) };
    inFlight.set(key, mine);
    mine.promise
      .finally(() => {
        if (inFlight.get(key) === mine) inFlight.delete(key);
      })
      .catch(() => {});
    return mine.promise;
  }

  function forget() {
    version++;
    entries.clear();
    inFlight.clear();
  }
  bus.subscribe(CHANNEL, (payload) => {
    if ((payload as { from?: unknown }).from !== instance) forget();
  });
  bus.onResumed(forget);

  const cache: ReadCache = {
    async invalidate() {
      forget();
      await bus
        .publish(CHANNEL, { from: instance })
        .catch((error) =>
          app.log.warn({ err: error }, 'other instances not told to forget their cached pages'),
        );
    },
    async serve(request, reply, compute) {
      // The same URL always parses to the same query: its key is worked out once.
      let key = keysByUrl.get(request.url);
      if (key === undefined) {
        key = cacheKey(request);
        if (keysByUrl.size >= MAX_ENTRIES) keysByUrl.clear();
        keysByUrl.set(request.url, key);
      }
      const entry = freshEntry(key) ?? (await computeOnce(key, compute));
      return answer(request, reply, entry);
    },
  };

  /** The stored copy under `key` while it may be served: nothing written since, not too old. */
  function freshEntry(key: string): Entry | undefined {
    const entry = bus.isListening() ? entries.get(key) : undefined;
    if (!entry || entry.version !== version || now() - entry.storedAt > maxAgeMs) return undefined;
    return entry;
  }

  function answer(request: FastifyRequest, reply: FastifyReply, entry: Entry): FastifyReply {
    if (request.headers['if-none-match'] === entry.etag) {
      return reply.code(304).headers(entry.notModifiedHeaders).send();
    }
    return reply.headers(entry.okHeaders).send(entry.body);
  }

  // The front door: a GET of a URL whose fresh copy is stored is answered before Fastify parses,
  // routes or logs it, the same bytes the onRequest hook below would send. Such an answer is
  // never slow and never fails, so the request log would not have a line for it either; while
  // every request is logged (debug), the door stays shut and the hook answers instead.
  if (frontDoor) {
    const { slot, headersFor } = frontDoor;
    /** The whole header block of each answer for `host`, as the Fastify path would send it. */
    const headersForHost = (entry: Entry, host: string | undefined) => {
      let headers = entry.byHost.get(host ?? '');
      if (headers) return headers;
      const security = headersFor(host);
      headers = {
        ok: { ...security, ...entry.okHeaders, 'content-length': entry.body.length },
        notModified: { ...security, ...entry.notModifiedHeaders },
      };
      if (entry.byHost.size < MAX_HOSTS_PER_ENTRY) entry.byHost.set(host ?? '', headers);
      return headers;
    };
    const answerBeforeRouting = (request: IncomingMessage, response: ServerResponse): boolean => {
      if (request.method !== 'GET') return false;
      const key = keysByUrl.get(request.url ?? '');
      const entry = key === undefined ? undefined : freshEntry(key);
      if (!entry) return false;
      const headers = headersForHost(entry, request.headers.host);
      if (request.headers['if-none-match'] === entry.etag) {
        response.writeHead(304, headers.notModified).end();
      } else {
        response.writeHead(200, headers.ok).end(entry.body);
      }
      return true;
    };
    app.addHook('onReady', async () => {
      const everyRequestLogged = app.log.level === 'debug' || app.log.level === 'trace';
      if (!everyRequestLogged) slot.door = answerBeforeRouting;
    });
    // From the start of a close, every request goes through Fastify, which answers it as closing.
    app.addHook('preClose', async () => {
      slot.door = null;
    });
  }

  // A poll of a page already stored is answered as soon as its route is known, without parsing
  // its query again: only URLs a cached route accepted are in keysByUrl, and a URL always parses
  // to the same key. The hooks before this one (security headers, the session) have run; the
  // rest of the request (its answer's hooks, the request log) goes as for any answer.
  app.addHook('onRequest', (request, reply, done) => {
    const key = request.method === 'GET' ? keysByUrl.get(request.url) : undefined;
    const entry = key === undefined ? undefined : freshEntry(key);
    if (!entry) return done();
    answer(request, reply, entry);
  });
  app.decorate('readCache', cache);
  // Before the answer leaves: a client reading anywhere once it has the answer finds the write.
  // A callback hook: reads, nearly every request, pass straight through without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const write =
      request.method !== 'GET' && request.method !== 'HEAD' && !request.routeOptions.config.readOnly;
    if (!write || reply.statusCode >= 400) return done(null, payload);
    cache.invalidate().then(() => done(null, payload), done);
  });
});
