/**
 * The provider transport against a real HTTP server playing a provider: it waits out a 429 for
 * its Retry-After (every request of the instance with it), backs off and retries a 5xx, passes
 * other answers through at once, and never sends more than its requests-per-second budget.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSolanaRpcFromTransport } from '@solana/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createProviderTransport, retryAfterMs } from './rpc-transport';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A JSON-RPC server answering each request by `answer(n)`: n counts requests from 0. */
async function provider(answer: (n: number) => { status: number; headers?: Record<string, string> }) {
  const arrivals: number[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      const { status, headers } = answer(arrivals.length);
      arrivals.push(Date.now());
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(status === 200 ? JSON.stringify({ jsonrpc: '2.0', id, result: 7 }) : '{}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

const rpcOf = (url: string, maxRequestsPerSecond = 100) =>
  createSolanaRpcFromTransport(createProviderTransport(url, { maxRequestsPerSecond, backoffMs: 50 }));

describe('the provider transport', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });

  it('waits out a 429 for its Retry-After, and so do the requests sent meanwhile', async () => {
    const { url, arrivals } = await provider((n) =>
      n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const rpc = rpcOf(url);
    const started = Date.now();
    const first = rpc.getSlot().send();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = rpc.getBlockHeight().send();
    expect(await first).toBe(7n);
    expect(await second).toBe(7n);
    expect(arrivals).toHaveLength(3);
    // Nothing reached the provider during the second it asked for.
    expect(arrivals[1]! - started).toBeGreaterThanOrEqual(950);
    expect(arrivals[2]! - started).toBeGreaterThanOrEqual(950);
  });

  it('backs off and retries a 5xx, and gives up after its retries', async () => {
    const flaky = await provider((n) => ({ status: n < 2 ? 503 : 200 }));
    expect(await rpcOf(flaky.url).getSlot().send()).toBe(7n);
    expect(flaky.arrivals).toHaveLength(3);
    expect(flaky.arrivals[2]! - flaky.arrivals[1]!).toBeGreaterThanOrEqual(90); // 50 ms, then 100 ms

    const down = await provider(() => ({ status: 502 }));
    await expect(rpcOf(down.url).getSlot().send()).rejects.toThrow(/502/);
    expect(down.arrivals).toHaveLength(5);
  });

  it('passes a 4xx through at once', async () => {
    const { url, arrivals } = await provider(() => ({ status: 401 }));
    await expect(rpcOf(url).getSlot().send()).rejects.toThrow(/401/);
    expect(arrivals).toHaveLength(1);
  });

  it('sends at most its budget a second: a burst of one second, then queued', async () => {
    const { url, arrivals } = await provider(() => ({ status: 200 }));
    const rpc = rpcOf(url, 10);
    const started = Date.now();
    // Distinct requests (kit coalesces identical ones in the same tick).
    await Promise.all(Array.from({ length: 25 }, (_, i) => rpc.getBlocks(BigInt(i)).send()));
    expect(arrivals).toHaveLength(25);
    // 10 at once, then one every 100 ms: the last no sooner than 1.5 s in.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    // The (i+1)th request waits for the tokens of (i - 9) tenths of a second (timers may fire 1 ms early).
    for (let i = 10; i < arrivals.length; i++)
      expect(arrivals[i]! - started).toBeGreaterThanOrEqual((i - 9) * 100 - 5);
  });
});
