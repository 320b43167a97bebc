import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

type Compute = () => Promise<{ body: unknown; headers?: Record<string, string> }>;

interface Entry {
  version: number;
  storedAt: number;
  body: string;
  etag: string;
  headers: Record<string, string>;
}

export interface ReadCache {
  /**
   * Answers a public read from its serialized copy while nothing was written since, else computes
   * and stores it. Polls that send the copy's ETag get a bodiless 304.
   */
  serve(request: FastifyRequest, reply: FastifyReply, compute: Compute): Promise<FastifyReply>;
  /** Forgets every copy: called after any successful write, and by jobs that write on their own. */
  invalidate(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    readCache: ReadCache;
  }
}

const MAX_ENTRIES = 500;
/** The longest a cached page may trail time-driven changes: half the fastest poll (5 s). */
export const READ_CACHE_MAX_AGE_MS = 2500;

/**
 * Serialized pages of the hottest public reads (the dare list and the stats strip, polled by every
 * open page). Any successful non-GET API request invalidates them all, so a reader never sees a
 * page older than the last write it could have caused; `maxAgeMs` bounds what time alone changes
 * (a deadline passing, a background refund) and writes made by another instance.
 */
export const readCache = fp(
  async (app: FastifyInstance, { maxAgeMs, now }: { maxAgeMs: number; now: () => number }) => {
    const entries = new Map<string, Entry>();
    const inFlight = new Map<string, { version: number; promise: Promise<Entry> }>();
    let version = 0;

    async function build(key: string, started: number, compute: Compute): Promise<Entry> {
      const computed = await compute();
      const body = JSON.stringify(computed.body);
      const entry = {
        version: started,
        storedAt: now(),
        body,
        headers: computed.headers ?? {},
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      };
      // A write during the computation may have changed the answer: serve it, keep it not.
      if (started === version) {
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

    const cache: ReadCache = {
      invalidate() {
        version++;
        entries.clear();
        inFlight.clear();
      },
      async serve(request, reply, compute) {
        const key = request.url;
        let entry = entries.get(key);
        if (!entry || entry.version !== version || now() - entry.storedAt > maxAgeMs) {
          entry = await computeOnce(key, compute);
        }
        reply.headers(entry.headers).header('etag', entry.etag).header('cache-control', 'no-cache');
        if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
        return reply.type('application/json; charset=utf-8').send(entry.body);
      },
    };
    app.decorate('readCache', cache);
    app.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) cache.invalidate();
    });
  },
);
