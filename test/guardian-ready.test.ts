/**
 * The guardian is ready (issue 33): its wallet pays each veto's fee, so the embedded chain funds
 * the guardian's key at start, and `/api/health` reports its balance with `guardian.ok` false
 * below ten vetoes' fees (the admin panel's warning reads it: guardian-status.test.tsx).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { GUARDIAN_MIN_LAMPORTS, guardianBalance } from '#server/chain/guardian-funds';
import { loadConfig } from '#server/config';
import { GUARDIAN_KEYPAIR_FILE } from '#server/judging-keys';
import { openRuntime } from '#server/runtime';
import { setupApiSuite } from './helpers/suite';

const { ctx, http } = setupApiSuite({});

describe("the guardian's wallet", () => {
  it('is reported by /api/health against the fees of ten vetoes, without making the status degraded', async () => {
    const guardian = ctx.judging.guardian;
    expect(GUARDIAN_MIN_LAMPORTS).toBe(50_000n);
    // The test context's guardian starts unfunded, as a cluster's new key does.
    const empty = await http.get('/api/health');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      status: 'ok',
      guardian: { ok: false, address: guardian, balance: '0', minBalance: '50000' },
    });
    await ctx.chain.airdrop(guardian, 1_000_000n);
    expect((await http.get('/api/health')).json().guardian).toEqual({
      ok: true,
      address: guardian,
      balance: '1000000',
      minBalance: '50000',
    });
  });

  it('is funded at an embedded start, its key the one written into the data folder', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-guardian-start-'));
    try {
      const runtime = await openRuntime(
        loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SEED_DEMO_DATA: 'false', DATABASE_URL: '' }),
      );
      try {
        const key = await readKeypairFile(path.join(dataDir, GUARDIAN_KEYPAIR_FILE));
        expect(runtime.judging.guardian).toBe(key.address);
        expect(await guardianBalance(runtime.chain.rpc, key.address)).toBe(1_000_000_000n);
      } finally {
        await runtime.close();
      }
      // A restart finds it funded and gives nothing more.
      const again = await openRuntime(
        loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SEED_DEMO_DATA: 'false', DATABASE_URL: '' }),
      );
      try {
        expect(await guardianBalance(again.chain.rpc, again.judging.guardian)).toBe(1_000_000_000n);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
