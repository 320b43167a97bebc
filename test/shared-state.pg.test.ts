import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { dares, payoutTransfers } from '#server/db/schema';
import { createJobLock } from '#server/jobs/job-lock';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { READ_CACHE_MAX_AGE_MS } from '#server/plugins/read-cache';
import type { StoragePort } from '#server/storage/port';
import { type Cluster, type ClusterInstance, startCluster } from './helpers/cluster';
import { airdrop, dareBody, payStake } from './helpers/money';
import { bearer, createTestWallet, registerWithWallet, type TestWallet } from './helpers/wallet';

/**
 * What two instances on one PostgreSQL share besides chat (chat-cluster.pg.test.ts): cached
 * reads that follow writes made on the other instance, and background jobs that run on one
 * instance at a time. PostgreSQL tier only.
 */
const LIST_DELAY_MS = 300;
let cluster: Cluster;
beforeAll(async () => {
  // The clean-up's listing is slowed down so that two runs started together surely overlap.
  const slowList = (disk: StoragePort): StoragePort => ({
    ...disk,
    list: async () => {
      await new Promise((resolve) => setTimeout(resolve, LIST_DELAY_MS));
      return disk.list();
    },
  });
  cluster = await startCluster({ storage: slowList });
});
afterAll(async () => {
  await cluster?.close();
});

async function creator(instance: ClusterInstance, username: string) {
  const wallet = await createTestWallet();
  const { token } = await registerWithWallet(instance.app, wallet, username);
  await airdrop(instance.app, wallet, '2');
  return { wallet, token };
}

async function createDare(
  instance: ClusterInstance,
  user: { wallet: TestWallet; token: string },
  title: string,
) {
  const paid = await payStake(instance.app, user.token, user.wallet, '0.1');
  const res = await instance.app.inject({
    method: 'POST',
    url: '/api/dares',
    payload: dareBody(user.wallet, paid, '0.1', { title }),
    headers: bearer(user.token),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; escrowWallet: string };
}

const listIds = async (instance: ClusterInstance) =>
  ((await instance.app.inject({ url: '/api/dares' })).json() as { id: number }[]).map((dare) => dare.id);

describe('cached reads across instances', () => {
  it("shows a dare created on A in B's list before B's cached copy would have expired", async () => {
    const { a, b } = cluster;
    const alice = await creator(a, 'alice');
    // B's list is cached (the second read is served from memory, same ETag).
    const first = await b.app.inject({ url: '/api/dares' });
    const again = await b.app.inject({ url: '/api/dares' });
    expect(again.headers.etag).toBe(first.headers.etag);

    const dare = await createDare(a, alice, 'Written on A');
    // Waits for the write's notice to reach B, not for a time: the only bound is the cache's own
    // age, past which B would show the dare without being told. (How fast: the cluster tier's number.)
    await expect.poll(() => listIds(b), { timeout: READ_CACHE_MAX_AGE_MS, interval: 10 }).toContain(dare.id);
  });
});

describe('background jobs across instances', () => {
  it('runs the refund job on exactly one instance when both start it together, and refunds once', async () => {
    const { a, b } = cluster;
    const bob = await creator(a, 'bob');
    const dare = await createDare(a, bob, 'Left without a winner');
    // Past deadline (7 days) and the refund grace (7 days more).
    cluster.clock.offsetMs = 15 * DAY_MS;

    const outcomes = await Promise.all([a.app.payoutJob.runNow(), b.app.payoutJob.runNow()]);
    expect(outcomes.sort()).toEqual(['ran', 'skipped']);

    const [row] = await a.database.db
      .select({ status: dares.status })
      .from(dares)
      .where(eq(dares.id, dare.id));
    expect(row?.status).toBe('cancelled');
    const refunds = await a.database.db
      .select({ status: payoutTransfers.status })
      .from(payoutTransfers)
      .where(and(eq(payoutTransfers.dareId, dare.id), eq(payoutTransfers.purpose, 'refund')));
    expect(refunds).toEqual([{ status: 'confirmed' }]);
    expect((await reconcileEscrows(a.database.db, cluster.chain.rpc)).differences).toEqual([]);
  });

  it('runs the upload clean-up on exactly one instance when both start it together', async () => {
    const { a, b, storage } = cluster;
    const stored = await storage.put(Readable.from([Buffer.from('never attached')]), 'video/mp4');
    // An hour and more later, by the app's clock, nobody submitted it.
    cluster.clock.offsetMs = Math.max(cluster.clock.offsetMs, 2 * 3600 * 1000);

    const outcomes = await Promise.all([a.app.videoCleanupJob.runNow(), b.app.videoCleanupJob.runNow()]);
    expect(outcomes.sort()).toEqual(['ran', 'skipped']);
    expect(await storage.stat(stored.key)).toBeNull();
  });

  it('lets another instance take a job over once the instance holding its lock is gone', async () => {
    const { a, b } = cluster;
    const [lockOfA, lockOfB] = [createJobLock(a.database), createJobLock(b.database)];
    let finish!: () => void;
    const held = lockOfA.runExclusive('payouts', () => new Promise<void>((resolve) => (finish = resolve)));
    const holder = async () => {
      const { rows } = await b.database.pool!.query<{ pid: number }>(
        `select pid from pg_locks
          where locktype = 'advisory' and granted and classid = 7243 and objid = 1
            and database = (select oid from pg_database where datname = current_database())`,
      );
      return rows[0]?.pid;
    };
    while ((await holder()) === undefined) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(await lockOfB.runExclusive('payouts', async () => 'B ran')).toEqual({ ran: false });
    // Instance A dies: its connection goes, and PostgreSQL releases its session's lock with it.
    await b.database.pool!.query('select pg_terminate_backend($1)', [await holder()]);
    while ((await holder()) !== undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await lockOfB.runExclusive('payouts', async () => 'B ran')).toEqual({ ran: true, value: 'B ran' });
    finish();
    expect(await held).toEqual({ ran: true, value: undefined });
  });
});
