import type { Address } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '#contract/limits';
import { solToLamports } from '#contract/money';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import {
  chatMessages,
  claims,
  dareSubmissions,
  dares,
  poolContributions,
  submissionVotes,
  users,
} from '#server/db/schema';
import { seedDemoData } from '#server/demo/seed';
import { demoAdminWallet } from '#server/judging-keys';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { createLocalDiskStorage } from '#server/storage/local-disk';
import { createTestContext, type TestContext } from './helpers/app';
import { setupApiSuite } from './helpers/suite';

const { ctx } = setupApiSuite();

const seedDeps = async (context: TestContext = ctx) => ({
  config: context.config,
  database: context.database,
  chain: context.chain,
  escrowKeys: context.escrowKeys,
  escrowProgramId: context.escrowProgramId,
  escrowProgramV2Id: context.escrowProgramV2Id,
  judging: context.judging,
  clock: () => context.clock.now,
  // The app's own video folder, so the app serves what the seed stored.
  storage: createLocalDiskStorage(context.config.storage.videoDir),
  // The demo admin judges with the key the embedded chain's first start writes (as npm start does).
  adminWallet: await demoAdminWallet(context.config.dataDir),
  payoutWindowPassed: async () => {
    await context.chain.testControls!.warp(Number(context.judging.payoutWindowSeconds) + 60);
  },
});

let generatedPassword = '';
const login = (context: TestContext, username: string, password: string) =>
  context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('demo data', () => {
  it('funds every demo dare on chain through the verified payment path', async () => {
    const result = await seedDemoData(await seedDeps());
    expect(result).toMatchObject({ seeded: true, admin: { username: 'admin', generated: true } });
    generatedPassword = result.seeded ? result.admin.password : '';
    const all = await ctx.database.db.select().from(dares);
    expect(new Set(all.map((dare) => dare.status))).toEqual(new Set(['active', 'completed', 'cancelled']));
    const regular = all.filter((dare) => !dare.isMajor);
    expect(new Set(regular.map((dare) => dare.category))).toEqual(new Set(CATEGORIES));
    const major = all.filter((dare) => dare.isMajor);
    expect(major).toMatchObject([{ status: 'active', totalPool: '0.900000000' }]);
    const paidOut = new Set(
      (await ctx.database.db.select().from(claims)).filter((c) => c.status === 'paid').map((c) => c.dareId),
    );
    for (const dare of all) {
      expect(dare.transactionSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      const { value } = await ctx.chain.rpc.getBalance(dare.escrowWallet as never).send();
      const vault = await fetchVault(
        ctx.chain.rpc,
        { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id },
        dare.escrowWallet as Address,
      );
      // A dare whose winner was paid, or whose payers were refunded, has its vault closed; every
      // other vault holds its pool above the vault's rent (its creator's, returned when it closes).
      if (paidOut.has(dare.id) || dare.status === 'cancelled') expect(value).toBe(0n);
      else {
        expect(vault).toMatchObject({
          total: solToLamports(dare.totalPool),
          kind: dare.isMajor ? 'major' : 'community',
        });
        expect(value).toBe(vault!.rent + solToLamports(dare.totalPool));
      }
    }
    // The deactivated dare went through the admin's Deactivate: its creator's stake is back on chain.
    const deactivated = all.filter((dare) => dare.status === 'cancelled');
    expect(deactivated.map((dare) => dare.title)).toEqual(['Juggle five balls for a minute']);
    const listed = await ctx.app.inject({ method: 'GET', url: `/api/dares/${deactivated[0]!.id}` });
    expect(listed.json()).toMatchObject({ phase: 'refunded', refundTotal: { amount: '0.2', backers: 1 } });
    expect(await reconcileEscrows(ctx.database.db, ctx.chain.rpc)).toEqual({
      checked: all.length,
      differences: [],
      foreign: [],
    });
    const admins = (await ctx.database.db.select().from(users)).filter((user) => user.isAdmin);
    expect(admins.map((user) => user.username)).toEqual(['admin']);
  });

  it('holds playable approved proofs, votes, featured videos, chat and a winner paid on chain', async () => {
    const db = ctx.database.db;
    const proofs = await db.select().from(dareSubmissions);
    expect(proofs.length).toBeGreaterThanOrEqual(4);
    for (const proof of proofs) {
      expect(['approved', 'winner']).toContain(proof.status);
      const video = await ctx.app.inject({ method: 'GET', url: `/api/video-proxy/${proof.id}` });
      expect(video.statusCode, video.body).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      // An MP4 starts with its 'ftyp' box: a real file, not a placeholder.
      expect(video.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    }
    expect((await db.select().from(submissionVotes)).length).toBeGreaterThanOrEqual(5);
    const featured = (await ctx.app.inject({ method: 'GET', url: '/api/featured-submissions' })).json();
    expect(featured.length).toBeGreaterThanOrEqual(3);

    const [paid] = (await db.select().from(claims)).filter((claim) => claim.status === 'paid');
    expect(paid).toMatchObject({ claimType: 'dare_winner', status: 'paid' });
    const status = await ctx.chain.rpc.getSignatureStatuses([paid!.transactionHash as never]).send();
    expect(status.value[0]?.err).toBeNull();
    const outcome = (
      await ctx.app.inject({ method: 'GET', url: `/api/dares/${paid!.dareId}/outcome` })
    ).json();
    expect(outcome.winners).toMatchObject([{ status: 'paid', transactionSignature: paid!.transactionHash }]);
    const [won] = await db.select().from(dares).where(eq(dares.id, paid!.dareId!));
    expect(won!.status).toBe('completed');
    const [winner] = await db.select().from(users).where(eq(users.id, paid!.userId));
    expect(winner).toMatchObject({ dareWins: 1 });
    expect(solToLamports(winner!.totalEarnings)).toBe(solToLamports(paid!.amount));

    const messages = await db.select().from(chatMessages);
    expect(messages.filter((m) => m.messageType === 'user').length).toBeGreaterThanOrEqual(3);
    expect(messages.map((m) => m.message)).toContain(`${winner!.username} won this dare!`);
    const contributors = new Set((await db.select().from(poolContributions)).map((c) => c.userId));
    expect(contributors.size).toBeGreaterThanOrEqual(3);
  });

  it('gives the demo admin a generated password, never the old constant', async () => {
    expect(generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await login(ctx, 'admin', 'darepool-admin')).statusCode).toBe(401);
    expect((await login(ctx, 'admin', generatedPassword)).statusCode).toBe(200);
    expect((await login(ctx, 'alice', 'darepool-demo')).statusCode).toBe(200);
  });

  it('loads only into an empty database', async () => {
    const before = await ctx.database.db.select().from(dares);
    expect(await seedDemoData(await seedDeps())).toEqual({ seeded: false });
    expect(await ctx.database.db.select().from(dares)).toHaveLength(before.length);
  });
});

describe('DEMO_ADMIN_PASSWORD', () => {
  it('sets the demo admin password of the first start', async () => {
    const other = await createTestContext();
    try {
      const result = await seedDemoData({ ...(await seedDeps(other)), adminPassword: 'chosen-by-operator' });
      expect(result).toEqual({
        seeded: true,
        admin: { username: 'admin', password: 'chosen-by-operator', generated: false },
      });
      expect((await login(other, 'admin', 'chosen-by-operator')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
