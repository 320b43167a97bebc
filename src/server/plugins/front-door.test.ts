import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type FrontDoorSlot, serverWithFrontDoor } from '#server/http-server';
import { createLocalBus } from '#server/instance-bus';
import { readCache } from './read-cache';
import { appSecurityHeaders, securityHeaders } from './security-headers';

/**
 * The read cache's front door over real HTTP: a fresh copy is answered before Fastify routes the
 * request, with the same bytes the routed answer has; anything else goes through Fastify.
 */
interface Served {
  app: FastifyInstance;
  baseUrl: string;
  /** Requests Fastify routed (its first onRequest hook ran). */
  routed: string[];
  computed: { count: number };
  clock: { now: number };
}

const open: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((app) => app.close()));
});

async function serve(level: 'info' | 'debug' = 'info'): Promise<Served> {
  const slot: FrontDoorSlot = { door: null };
  const app = Fastify({
    serverFactory: serverWithFrontDoor(slot),
    logger: { level, stream: { write() {} } },
  });
  open.push(app);
  const routed: string[] = [];
  const computed = { count: 0 };
  const clock = { now: 1_000_000 };
  app.addHook('onRequest', (request, _reply, done) => {
    routed.push(`${request.method} ${request.url}`);
    done();
  });
  await app.register(securityHeaders);
  await app.register(readCache, {
    maxAgeMs: 2500,
    now: () => clock.now,
    bus: createLocalBus(),
    frontDoor: { slot, headersFor: appSecurityHeaders },
  });
  app.get('/api/list', (request, reply) =>
    app.readCache.serve(request, reply, async () => {
      computed.count++;
      return { body: { items: [computed.count] }, headers: { 'x-next-cursor': '7' } };
    }),
  );
  app.post('/api/write', async () => ({ ok: true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl: address, routed, computed, clock };
}

interface Answer {
  status: number;
  /** Every header but the clock's Date. */
  headers: Record<string, string>;
  body: string;
}

/** node:http rather than fetch, which will not send a Host header of the test's choosing. */
function request(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    http
      .request(url, { method: options.method ?? 'GET', headers: options.headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = { ...response.headers } as Record<string, string>;
          delete headers.date;
          resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks).toString() });
        });
      })
      .on('error', reject)
      .end();
  });
}

describe('front door', () => {
  it('answers a fresh cached read before routing, with the bytes and headers the routed answer has', async () => {
    const { baseUrl, routed, computed } = await serve();
    const first = await request(`${baseUrl}/api/list?x=1`);
    const second = await request(`${baseUrl}/api/list?x=1`);
    expect(second.body).toBe(first.body);
    expect(second.headers).toEqual(first.headers);
    expect(second.headers).toMatchObject({
      'content-security-policy': expect.stringContaining('frame-ancestors'),
      'x-content-type-options': 'nosniff',
      'x-next-cursor': '7',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(first.body)),
    });
    expect(routed).toEqual(['GET /api/list?x=1']);
    expect(computed.count).toBe(1);

    // A poll that has the copy gets the routed 304, headers and all.
    const etag = first.headers.etag!;
    const unchanged = await request(`${baseUrl}/api/list?x=1`, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(routed).toHaveLength(1);
    // Another spelling of the same query: routed, and answered from the same copy.
    const routedUnchanged = await request(`${baseUrl}/api/list?x=1&`, { headers: { 'if-none-match': etag } });
    expect(routedUnchanged.status).toBe(304);
    expect(routed).toHaveLength(2);
    expect(unchanged.headers).toEqual(routedUnchanged.headers);
  });

  it('puts the Host the request names into the policy, as the routed answer does', async () => {
    const { baseUrl } = await serve();
    const url = `${baseUrl}/api/list`;
    await request(url);
    for (const host of ['darepool.example:8443', 'bad host"']) {
      const answer = await request(url, { headers: { host } });
      expect(answer.headers['content-security-policy']).toBe(
        appSecurityHeaders(host)['content-security-policy'],
      );
    }
    expect(appSecurityHeaders('darepool.example:8443')['content-security-policy']).toContain(
      'ws://darepool.example:8443',
    );
  });

  it('sends a write, a HEAD and anything uncached through Fastify, and reads after a write fresh', async () => {
    const { baseUrl, routed, computed } = await serve();
    await request(`${baseUrl}/api/list`);
    await request(`${baseUrl}/api/list`, { method: 'HEAD' });
    await request(`${baseUrl}/api/other`);
    expect((await request(`${baseUrl}/api/write`, { method: 'POST' })).status).toBe(200);
    const after = await request(`${baseUrl}/api/list`);
    expect(JSON.parse(after.body)).toEqual({ items: [2] });
    expect(routed).toEqual([
      'GET /api/list',
      'HEAD /api/list',
      'GET /api/other',
      'POST /api/write',
      'GET /api/list',
    ]);
    expect(computed.count).toBe(2);
  });

  it('lets a copy older than the cache allows go to Fastify, which computes it again', async () => {
    const { baseUrl, routed, clock } = await serve();
    await request(`${baseUrl}/api/list`);
    clock.now += 2501;
    expect(JSON.parse((await request(`${baseUrl}/api/list`)).body)).toEqual({ items: [2] });
    expect(routed).toHaveLength(2);
  });

  it('stays shut while every request is logged (debug), so each leaves its line', async () => {
    const { baseUrl, routed, computed } = await serve('debug');
    await request(`${baseUrl}/api/list`);
    await request(`${baseUrl}/api/list`);
    expect(routed).toHaveLength(2);
    // Still answered from the copy, by the cache's own hook.
    expect(computed.count).toBe(1);
  });
});
