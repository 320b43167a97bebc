import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../src/contract/limits';
import { solToLamports } from '../src/contract/money';
import { dares, users } from '../src/server/db/schema';
import { seedDemoData } from '../src/server/db/seed';
import { reconcileEscrows } from '../src/server/features/ledger/reconcile';
import { createTestContext, type TestContext } from './helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const seedDeps = () => ({
  db: ctx.database.db,
  chain: ctx.chain,
  escrowKeys: ctx.escrowKeys,
  clock: () => ctx.clock.now,
});

let generatedPassword = '';
const login = (context: TestContext, username: string, password: string) =>
  context.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });

describe('demo data', () => {
  it('funds every demo dare on chain through the verified payment path', async () => {
    const result = await seedDemoData(seedDeps());
    expect(result).toMatchObject({ seeded: true, admin: { username: 'admin', generated: true } });
    generatedPassword = result.seeded ? result.admin.password : '';
    const all = await ctx.database.db.select().from(dares);
    expect(new Set(all.map((dare) => dare.status))).toEqual(new Set(['active', 'completed', 'cancelled']));
    const regular = all.filter((dare) => !dare.isMajor);
    expect(new Set(regular.map((dare) => dare.category))).toEqual(new Set(CATEGORIES));
    const major = all.filter((dare) => dare.isMajor);
    expect(major).toMatchObject([{ status: 'active', totalPool: '0.800000000' }]);
    for (const dare of all) {
      expect(dare.transactionSignature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      const { value } = await ctx.chain.rpc.getBalance(dare.escrowWallet as never).send();
      expect(solToLamports(dare.totalPool)).toBe(value);
    }
    expect(await reconcileEscrows(ctx.database.db, ctx.chain.rpc)).toEqual({
      checked: all.length,
      differences: [],
    });
    const admins = (await ctx.database.db.select().from(users)).filter((user) => user.isAdmin);
    expect(admins.map((user) => user.username)).toEqual(['admin']);
  });

  it('gives the demo admin a generated password, never the old constant', async () => {
    expect(generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await login(ctx, 'admin', 'darepool-admin')).statusCode).toBe(401);
    expect((await login(ctx, 'admin', generatedPassword)).statusCode).toBe(200);
    expect((await login(ctx, 'alice', 'darepool-demo')).statusCode).toBe(200);
  });

  it('loads only into an empty database', async () => {
    const before = await ctx.database.db.select().from(dares);
    expect(await seedDemoData(seedDeps())).toEqual({ seeded: false });
    expect(await ctx.database.db.select().from(dares)).toHaveLength(before.length);
  });
});

describe('DEMO_ADMIN_PASSWORD', () => {
  it('sets the demo admin password of the first start', async () => {
    const other = await createTestContext();
    try {
      const result = await seedDemoData({
        db: other.database.db,
        chain: other.chain,
        escrowKeys: other.escrowKeys,
        clock: () => other.clock.now,
        adminPassword: 'chosen-by-operator',
      });
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
