import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { startServer } from './fixtures/server';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const login = (baseUrl: string, username: string, password: string) =>
  json(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

describe('a restart of the real server', () => {
  // Two server starts in the body, each allowed what a file's start gets in a hook (90 s).
  it('keeps users, sessions and chain state, and does not load the demo data twice', {
    timeout: 180_000,
  }, async () => {
    // Without DEMO_ADMIN_PASSWORD, as a fresh `npm start`: the first start makes one up.
    const first = await startServer({ dataDir, logLevel: 'warn', env: { DEMO_ADMIN_PASSWORD: '' } });
    // The start-up lines are logged just after the port opens: the health check can win the race.
    await expect.poll(() => first.output()).toMatch(/Demo admin: username \\"admin\\", password \\"/);
    const adminPassword = /password \\"([A-Za-z0-9_-]+)\\"/.exec(first.output())?.[1] ?? '';
    expect(adminPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // Not the constant of old, nor the e2e fixture's (this server was started without it).
    expect((await login(first.baseUrl, DEMO_ADMIN.username, 'darepool-admin')).status).toBe(401);
    expect((await login(first.baseUrl, DEMO_ADMIN.username, DEMO_ADMIN.password)).status).toBe(401);
    const session = await login(first.baseUrl, 'alice', DEMO_USER_PASSWORD);
    expect(session.status).toBe(200);
    const token = session.body.token as string;
    const slotBefore = BigInt(
      ((await json(`${first.baseUrl}/api/health`)).body.chain as { slot: string }).slot,
    );
    await first.stop();

    const second = await startServer({ dataDir, logLevel: 'info', env: { DEMO_ADMIN_PASSWORD: '' } });
    try {
      await expect.poll(() => second.output()).toContain('DarePool listening');
      await expect.poll(() => second.output()).toContain('Database:');
      expect(second.output()).not.toContain('demo data loaded');
      expect(second.output()).not.toContain(adminPassword);
      const me = await json(`${second.baseUrl}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
      expect((me.body.user as { username: string }).username).toBe('alice');
      const health = await json(`${second.baseUrl}/api/health`);
      expect(BigInt((health.body.chain as { slot: string }).slot)).toBeGreaterThanOrEqual(slotBefore);
      expect((await login(second.baseUrl, DEMO_ADMIN.username, adminPassword)).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
