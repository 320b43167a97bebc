import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type NpmStarted, npmStart } from '../bench/lib/npm-start';
import { createDareOverHttp, newClient, request } from './fixtures/http-client';
import { newPage } from './fixtures/page';

/**
 * The other spec files run the server from its TypeScript sources; users run `npm start`, which
 * runs it compiled and bundled (scripts/start.mjs). This one runs that, as a user types it.
 */
describe('npm start (the compiled, bundled server)', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'darepool-npm-start-'));
  const logFile = path.join(work, 'server.log');
  let server: NpmStarted;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      npmStart(
        { dataDir: path.join(work, 'data'), env: { SEED_DEMO_DATA: 'true' }, logFile },
        undefined,
        150_000,
      ),
      chromium.connect(inject('chromiumWsEndpoint')),
    ]);
  });

  afterAll(async () => {
    await Promise.all([server?.stop(), browser?.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('signs in, takes a stake through the escrow program, and shows the dare on Home', async () => {
    const client = await newClient(server, 0);
    const dare = await createDareOverHttp(server, client, { title: 'Bundled server dare', stake: '0.05' });
    expect(dare.totalPool).toBe('0.05');

    const opened = await newPage(browser, { baseUrl: server.baseUrl });
    try {
      await opened.page.goto(server.baseUrl);
      const cards = opened.page.getByRole('list', { name: 'Dares' }).getByRole('link');
      await cards.filter({ hasText: 'Bundled server dare' }).waitFor();
      const active = await request<unknown[]>(server, 'GET', '/api/dares?filter=active');
      await expect.poll(() => cards.count()).toBe(active.length);
      expect(opened.problems()).toEqual([]);
    } finally {
      await opened.close();
    }

    const docs = await request<{ openapi: string; paths: Record<string, unknown> }>(
      server,
      'GET',
      '/api/docs/json',
    );
    expect(docs.openapi).toMatch(/^3\.1\./);
    expect(docs.paths).toHaveProperty('/api/dares/{id}/enter-transaction');
    // Nothing the bundle broke was only logged.
    expect(readFileSync(logFile, 'utf8')).not.toMatch(/"level":(50|60)/);
  });
});
