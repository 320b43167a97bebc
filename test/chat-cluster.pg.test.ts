import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { deployEscrowProgramsOnEmbeddedChain } from '#server/chain/escrow-program/app-program';
import { createChain } from '#server/chain/index';
import type { ChainPort } from '#server/chain/port';
import { loadConfig } from '#server/config';
import { type Database, openPostgres } from '#server/db/client';
import { resolveJudging } from '#server/judging-keys';
import { createLocalDiskStorage } from '#server/storage/local-disk';
import { openTestDatabase } from './helpers/app';
import { type ChatClient, connectChat, isChat, isPresence, listen } from './helpers/chat';
import { createTestWallet, registerWithWallet } from './helpers/wallet';

/**
 * Two server instances on one PostgreSQL database, as behind a load balancer: each has its own
 * connection pool, its own LISTEN connection and its own sockets. Runs in the PostgreSQL tier
 * only (vitest.config.ts includes *.pg.test.ts when TEST_DATABASE_URL is set).
 */
interface Instance {
  app: FastifyInstance;
  chain: ChainPort;
  database: Database;
  url: string;
  dataDir: string;
}

const databases: Database[] = [];
const instances: Instance[] = [];
const clients: ChatClient[] = [];

async function startInstance(database: Database): Promise<Instance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-cluster-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    SEED_DEMO_DATA: 'false',
    CHAT_HEARTBEAT_MS: '200',
  });
  const chain = await createChain({ stateDir: null });
  const escrowKeys = createEscrowKeys(randomBytes(64));
  const { v2 } = await deployEscrowProgramsOnEmbeddedChain(chain, escrowKeys, null);
  const app = await buildApp({
    config,
    database,
    chain,
    escrowKeys,
    escrowProgramId: null,
    escrowProgramV2Id: v2.programId,
    judging: await resolveJudging(config, escrowKeys),
    storage: createLocalDiskStorage(config.storage.videoDir),
    clock: () => new Date(),
  });
  const url = await listen(app);
  return { app, chain, database, url, dataDir };
}

beforeAll(async () => {
  const first = await openTestDatabase();
  if (first.kind !== 'postgres') throw new Error('chat-cluster needs TEST_DATABASE_URL (PostgreSQL)');
  const connectionString = (first.pool!.options as { connectionString: string }).connectionString;
  const second = await openPostgres(connectionString, 5);
  // The second pool closes first: the first one's close drops the cloned database.
  databases.push(second, first);
  instances.push(await startInstance(first), await startInstance(second));
});

afterAll(async () => {
  for (const chat of clients) chat.close();
  for (const instance of instances) {
    await instance.app.close();
    await instance.chain.close();
    rmSync(instance.dataDir, { recursive: true, force: true });
  }
  for (const database of databases) await database.close();
});

async function client(instance: Instance): Promise<ChatClient> {
  const chat = await connectChat(instance.url);
  clients.push(chat);
  return chat;
}

describe('chat across two instances on one PostgreSQL', () => {
  it('delivers a message sent to instance A to a socket on instance B, and counts both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const wallet = await createTestWallet();
    const { token } = await registerWithWallet(a.app, wallet, 'cluster');

    const listener = await client(b);
    const speaker = await client(a);
    speaker.send({ type: 'auth', token });
    await speaker.next((frame) => frame.type === 'auth' && frame.ok);
    // Both sockets are in the global room, one per instance: each sees 2 online.
    await listener.next(isPresence(null, 2));
    await speaker.next(isPresence(null, 2));

    speaker.send({ type: 'chat_message', message: 'from instance A', dareId: null });
    const received = await listener.next(isChat('from instance A'));
    expect(received).toMatchObject({ message: { username: 'cluster', messageType: 'user' } });
    // Stored once, visible from either instance.
    const history = (await b.app.inject({ url: '/api/chat-messages' })).json();
    expect(history.filter((m: { message: string }) => m.message === 'from instance A')).toHaveLength(1);
  });

  it('signs a session out of its socket on instance B when it logs out on instance A', async () => {
    const [a, b] = instances as [Instance, Instance];
    const wallet = await createTestWallet();
    const { token } = await registerWithWallet(a.app, wallet, 'leaver');
    const socket = await client(b);
    socket.send({ type: 'auth', token });
    await socket.next((frame) => frame.type === 'auth' && frame.ok);
    const logout = await a.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.statusCode).toBe(204);
    await socket.next((frame) => frame.type === 'auth' && !frame.ok);
  });

  it('drops a socket that stopped reading once its unsent frames pass the limit, and no socket that reads', async () => {
    const [a] = instances as [Instance, Instance];
    const reader = await client(a);
    const stalled = await client(a);
    // Everyone in the global room, on both instances (earlier tests' sockets too), once the joins'
    // news has settled (a count goes out at most once a second).
    await stalled.next((frame) => frame.type === 'presence');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const counts = () => reader.frames.flatMap((frame) => (frame.type === 'presence' ? [frame.online] : []));
    const settled = counts().length;
    const count = counts().at(-1)!;
    // The client stops reading, and keeps answering the heartbeat (unasked pongs, as a client may
    // send): what the server writes piles up in the kernel's buffers, then in the server's memory.
    stalled.socket.pause();
    const pongs = setInterval(() => stalled.socket.pong(), 50);
    const dropped = () =>
      counts()
        .slice(settled)
        .includes(count - 1);
    // Another instance's news, as it arrives through the bus: batches of 2,000 messages (~1.2 MB)
    // to the global room, each read whole by the reader before the next, until the room's count
    // says a socket left.
    const text = 'x'.repeat(480);
    let sent = 0;
    for (let batch = 0; batch < 100 && !dropped(); batch += 1) {
      await a.database.pool!.query(
        `select pg_notify('darepool_chat', json_build_object('kind', 'message', 'message', json_build_object(
           'id', 10000000 + g, 'dareId', null, 'userId', null, 'username', 'elsewhere',
           'message', $1 || g, 'messageType', 'system', 'createdAt', now()::text))::text)
         from generate_series($2::int, $3::int) g`,
        [text, sent + 1, sent + 2000],
      );
      sent += 2000;
      await reader.next(isChat(`${text}${sent}`), 10_000);
    }
    // Dropped before 100 batches (the kernel's buffers take up to tens of MB first, then the
    // socket has a second's grace), and only the stalled socket.
    expect(dropped()).toBe(true);
    expect(reader.socket.readyState).toBe(reader.socket.OPEN);
    // Read again, the stalled client finds the connection ended without a close frame, and short
    // of the messages sent after it fell behind.
    clearInterval(pongs);
    stalled.socket.resume();
    expect(await stalled.closed).toBe(1006);
    const stalledGot = stalled.frames.filter((frame) => frame.type === 'chat_message').length;
    expect(stalledGot).toBeLessThan(sent);
    expect(
      reader.frames.filter(
        (frame) => frame.type === 'chat_message' && frame.message.username === 'elsewhere',
      ),
    ).toHaveLength(sent);
  }, 120_000);
});
