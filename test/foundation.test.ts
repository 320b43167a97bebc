import { generateKeyPairSigner } from '@solana/kit';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/client';
import { createDare, createUser } from '#server/db/factories';
import { ledgerEntries, systemSettings } from '#server/db/schema';
import { TEST_INDEX_HTML } from './helpers/app';
import { setupApiSuite } from './helpers/suite';

const { ctx } = setupApiSuite();
let db: Db;
beforeAll(() => {
  db = ctx.database.db;
});

describe('HTTP conventions', () => {
  it('reports database and chain health', async () => {
    const res = await ctx.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database).toMatchObject({ ok: true, kind: ctx.database.kind });
    expect(body.chain).toMatchObject({ ok: true, cluster: 'localnet', embedded: true });
    expect(BigInt(body.chain.slot)).toBeGreaterThanOrEqual(0n);
    expect(body.rateLimits).toEqual({ store: 'memory', ok: true });
  });

  it('names the escrow program, which runs on the chain', async () => {
    const { escrowProgramId } = (await ctx.app.inject('/api/config')).json();
    const { value } = await ctx.chain.rpc.getAccountInfo(escrowProgramId, { encoding: 'base64' }).send();
    expect(value?.executable).toBe(true);
  });

  it('serves the public configuration the web needs', async () => {
    const res = await ctx.app.inject('/api/config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      cluster: 'localnet',
      embeddedChain: true,
      explorerUrl: '/tx/{signature}',
      // The test chain serves no RPC, so Solana Explorer cannot read it.
      solanaExplorerUrl: null,
      escrowProgramId: ctx.escrowProgramId,
      escrowProgramV2Id: ctx.escrowProgramV2Id,
      limits: {
        stakeMinSol: '0.01',
        stakeMaxSol: '5',
        networkFeeSol: '0.000005',
        poolAddMinSol: '0.01',
        maxVideoBytes: 10 * 1024 * 1024,
        votesPerUserPerDare: 3,
        airdropMaxSol: '10',
        // A v2 entry's rent on this chain (144 bytes: 1,893,120 lamports) and one signature's fee.
        entryCostSol: '0.00189812',
        // A new v2 vault's rent (424 bytes: 3,841,920) and its creator's receipt's (120: 1,726,080).
        newVaultRentSol: '0.005568',
        // What a backer's first contribution lends: its receipt's rent (decision 058).
        receiptRentSol: '0.00172608',
      },
    });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await ctx.app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ error: 'No such endpoint: GET /api/no-such-thing', code: 'NOT_FOUND' });
  });

  it('serves the app for any other path so the app shows its own 404 page', async () => {
    for (const url of ['/', '/no-such-page', '/dare/123', '/admin?tab=users']) {
      const res = await ctx.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe(TEST_INDEX_HTML);
    }
  });

  it('answers a missing asset with a 404, not the app', async () => {
    const res = await ctx.app.inject('/assets/old-chunk-abc123.js');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('publishes an OpenAPI document generated from the contract schemas', async () => {
    const res = await ctx.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/config']));
    const health = doc.paths['/api/health'].get.responses['200'].content['application/json'].schema;
    expect(health).toEqual({ $ref: '#/components/schemas/Health' });
    expect(Object.keys(doc.components.schemas.Health.properties)).toEqual([
      'status',
      'database',
      'chain',
      'rateLimits',
      'feePayer',
      'guardian',
    ]);
    const ui = await ctx.app.inject('/api/docs');
    expect([200, 302]).toContain(ui.statusCode);
  });
});

describe('database constraints', () => {
  it('keeps usernames unique regardless of case, and wallets unique', async () => {
    const user = await createUser(db, { username: 'Unique1' });
    await expect(createUser(db, { username: 'unique1' })).rejects.toThrow();
    await expect(createUser(db, { walletAddress: user.walletAddress })).rejects.toThrow();
  });

  it('refuses negative amounts, unknown statuses and a second submission per user per dare', async () => {
    const user = await createUser(db);
    await expect(createDare(db, { creatorId: user.id, stakeAmount: '-1' })).rejects.toThrow();
    await expect(createDare(db, { creatorId: user.id, status: 'paused' })).rejects.toThrow();
    await expect(createDare(db, { creatorId: user.id, category: 'cooking' })).rejects.toThrow();
    const major = await createDare(db, { creatorId: user.id, category: 'fitness', isMajor: true });
    expect(major.category).toBe('fitness');
    const dare = await createDare(db, { creatorId: user.id });
    const insertSubmission = () =>
      db.execute(
        sql`insert into dare_submissions (dare_id, user_id, video_url) values (${dare.id}, ${user.id}, 'https://v.example/x.mp4')`,
      );
    await insertSubmission();
    await expect(insertSubmission()).rejects.toThrow();
  });

  it('stores SOL exactly as numeric(18,9)', async () => {
    const user = await createUser(db);
    const dare = await createDare(db, {
      creatorId: user.id,
      stakeAmount: '4.123456789',
      totalPool: '4.123456789',
    });
    expect(dare.stakeAmount).toBe('4.123456789');
    await expect(createDare(db, { creatorId: user.id, stakeAmount: '0.0000000001' })).resolves.toMatchObject({
      stakeAmount: '0.000000000',
    });
  });

  it('keeps the ledger append-only', async () => {
    // A real address holding what the row says, so the file still reconciles when it closes.
    const escrow = (await generateKeyPairSigner()).address;
    const funded = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/airdrop',
      payload: { walletAddress: escrow, amount: '0.5' },
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const [entry] = await db
      .insert(ledgerEntries)
      .values({
        kind: 'stake',
        escrowWallet: escrow,
        counterparty: 'payer',
        direction: 1,
        amount: '0.5',
        signature: 'sig-ledger-test',
      })
      .returning();
    await expect(
      db.execute(sql`update ledger_entries set amount = 1 where id = ${entry!.id}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_entries where id = ${entry!.id}`)).rejects.toThrow();
    await expect(
      db.insert(ledgerEntries).values({ ...entry!, id: undefined, createdAt: undefined }),
    ).rejects.toThrow();
  });

  it('starts with both system switches on', async () => {
    const rows = await db.select().from(systemSettings);
    const settings = Object.fromEntries(rows.map((row) => [row.settingKey, row.settingValue]));
    expect(settings).toMatchObject({ dare_creation_enabled: 'true', registration_enabled: 'true' });
  });
});
