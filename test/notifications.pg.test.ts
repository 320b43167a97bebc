/**
 * Notifications on two instances sharing one PostgreSQL (issue 35, decision 074): the delivery job
 * of both, run at the same time again and again, posts each webhook event once; a notification
 * written on one instance reaches its user's socket on the other. PostgreSQL tier only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDare } from '#server/db/factories';
import { dareSubmissions } from '#server/db/schema';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';
import { notifyLowBalance } from '#server/features/notifications/emit';
import { connectChat, listen } from './helpers/chat';
import { type Cluster, startCluster } from './helpers/cluster';
import { bearer, createTestWallet, registerWithWallet } from './helpers/wallet';

const received: { id: string; event: string; wallet: string }[] = [];
const receiver = http.createServer((request, response) => {
  let raw = '';
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', () => {
    const body = JSON.parse(raw);
    received.push({
      id: String(request.headers['x-darepool-delivery']),
      event: body.event,
      wallet: body.wallet,
    });
    // A slow receiver: both instances' runs surely overlap while it answers.
    setTimeout(() => response.writeHead(200).end(), 50);
  });
});

let cluster: Cluster;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  cluster = await startCluster({
    env: {
      ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/a,http://127.0.0.1:${port}/b`,
      NOTIFY_JOB_INTERVAL_SECONDS: '3600',
    },
  });
});
afterAll(async () => {
  await cluster?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('notifications on two instances', () => {
  it('deliver each webhook event once per receiver, whichever instance runs the job', async () => {
    const now = new Date();
    for (let i = 0; i < 20; i++)
      await notifyLowBalance(cluster.a.database.db, {
        event: 'fee-payer-low',
        wallet: `Wallet${i}`,
        balanceLamports: 1n,
        minimumLamports: 2n,
        now,
      });
    for (let round = 0; round < 4; round++)
      await Promise.all([cluster.a.app.notificationsJob.runNow(), cluster.b.app.notificationsJob.runNow()]);
    // (The job's own check of the embedded fee payer's balance may add its alert: once too.)
    const ours = received.filter((hit) => hit.wallet.startsWith('Wallet'));
    expect(ours).toHaveLength(40);
    const perId = new Map<string, number>();
    for (const hit of received) perId.set(hit.id, (perId.get(hit.id) ?? 0) + 1);
    expect(new Set(ours.map((hit) => hit.id)).size).toBe(20);
    expect([...perId.values()].every((count) => count === 2)).toBe(true);
  });

  it('bring a notification written on one instance to its user’s socket on the other', async () => {
    const author = await registerWithWallet(cluster.a.app, await createTestWallet(), 'author');
    const admin = await registerWithWallet(cluster.a.app, await createTestWallet(), 'moderator');
    await setAdminByUsernameOrWallet(cluster.a.database.db, 'moderator', true, new Date());
    const dare = await createDare(cluster.a.database.db, {
      creatorId: admin.user.id,
      title: 'Cross-instance dare',
    });
    const [submission] = await cluster.a.database.db
      .insert(dareSubmissions)
      .values({
        dareId: dare.id,
        userId: author.user.id,
        videoUrl: 'https://videos.example/a.mp4',
        description: 'proof',
      })
      .returning();

    const socket = await connectChat(await listen(cluster.b.app));
    socket.send({ type: 'auth', token: author.token });
    await socket.next((frame) => frame.type === 'auth');
    const rejected = await cluster.a.app.inject({
      method: 'PUT',
      url: `/api/admin/submissions/${submission!.id}`,
      payload: { status: 'rejected', reason: 'Too dark to see' },
      headers: bearer(admin.token),
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const frame = await socket.next((f) => f.type === 'notification');
    socket.close();
    expect(frame).toMatchObject({ notification: { kind: 'proof-rejected', dareId: dare.id } });
    const list = await cluster.b.app.inject({ url: '/api/notifications', headers: bearer(author.token) });
    expect(list.json()).toMatchObject({ unread: 1, items: [{ kind: 'proof-rejected' }] });
  });
});
