import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import { createClient } from 'redis';

/**
 * The Redis the Redis-backed tests use: TEST_REDIS_URL, which scripts/test.ts sets when a Redis
 * answers (vitest.config.ts leaves `*.redis.test.ts` out without it). Set but silent is a failure,
 * never a skip: the message says what to do.
 */
export async function testRedisUrl(): Promise<string> {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set: Redis-backed tests run only when it names a Redis');
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis does not answer at ${url} (TEST_REDIS_URL): start it (redis-server --port 6379), or unset TEST_REDIS_URL to leave the Redis-backed tests out. ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    if (client.isOpen) await client.close().catch(() => {});
  }
  return url;
}

/** A key prefix no other test (or test run) shares. */
export const testKeyPrefix = () => `darepool-test:${randomBytes(6).toString('hex')}:`;

/** A port nothing listens on: a Redis that is not there. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface TcpProxy {
  url: string;
  /** Redis goes away: connections are cut and new ones refused. */
  stop(): Promise<void>;
  /** Redis is back on the same address. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy in front of Redis that a test can stop and resume, as a Redis restart would look. */
export async function startTcpProxy(redisUrl: string): Promise<TcpProxy> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const next = createServer((inbound) => {
      const outbound = new Socket();
      outbound.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
    port = (next.address() as { port: number }).port;
    server = next;
  };
  const stop = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  await listen();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    resume: listen,
    close: stop,
  };
}
