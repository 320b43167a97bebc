import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEXT_MESSAGES } from '#contract/text';
import { dareSubmissions, paymentIntents, preparedTransactions } from '#server/db/schema';
import { loggerOptions } from '#server/logger';
import { postSubmit, proofUrlFor, signedEntry } from './helpers/entries';
import { dareBody, payStake } from './helpers/money';
import { api, createFundedDare } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

/**
 * U+0000 cannot be stored in PostgreSQL text: every such string must be refused by the request's
 * schema (400, its own message) before anything moves, never fail inside a query (500, logged as
 * an error), least of all after the user's SOL or entry reached the chain.
 */
const lines: { level: number; msg: string }[] = [];
const {
  ctx,
  actors: { admin, maker },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  context: {
    app: {
      logger: {
        ...loggerOptions({ logLevel: 'info' }, { pretty: false }),
        stream: { write: (line: string) => lines.push(JSON.parse(line)) },
      },
    },
  },
  actors: { admin: { admin: true }, maker: {} },
});

const NUL = '\u0000';
const errorLines = () => lines.filter((line) => line.level >= 50);

const countIntents = async () => (await ctx.database.db.select({ n: count() }).from(paymentIntents))[0]!.n;

async function expectRefused(response: { statusCode: number; json(): { error?: string } }) {
  expect(response.statusCode).toBe(400);
  expect(response.json().error).toBe(TEXT_MESSAGES.nul);
}

describe('NUL bytes in what clients send', () => {
  it('answer 400 in searches, the login and a video path, logging no error', async () => {
    const before = errorLines().length;
    await expectRefused(await ctx.app.inject({ url: '/api/dares?q=%00' }));
    await expectRefused(await ctx.app.inject({ url: '/api/dares?q=a%00b&category=x' }));
    await expectRefused(await ctx.app.inject({ url: '/api/dares?category=%00' }));
    await expectRefused(await api(ctx).get('/api/admin/users?q=%00', admin.token));
    await expectRefused(await api(ctx).get('/api/admin/dares?q=%00', admin.token));
    await expectRefused(
      await api(ctx).post('/api/auth/login', { username: NUL, password: 'whatever-it-is' }),
    );
    await expectRefused(await api(ctx).post('/api/auth/login', { username: 'admin', password: `a${NUL}` }));
    expect((await ctx.app.inject({ url: '/uploads/videos/%00' })).statusCode).toBe(404);
    expect(errorLines().slice(before)).toEqual([]);
  });

  it("refuse a dare's title or description before its stake transaction is even built", async () => {
    const before = errorLines().length;
    const intentsBefore = await countIntents();
    const escrow = (await api(ctx).post('/api/create-escrow-wallet', undefined, maker.token)).json()
      .publicKey;
    const request = { fromWallet: maker.wallet.address, toWallet: escrow, amount: '0.05' };
    await expectRefused(
      await api(ctx).post('/api/create-transaction', { ...request, title: `Lemon${NUL}` }, maker.token),
    );
    await expectRefused(
      await api(ctx).post('/api/create-transaction', { ...request, description: `${NUL}` }, maker.token),
    );
    const intentsAfter = await countIntents();
    expect(intentsAfter).toBe(intentsBefore);
    // The same texts are refused by the dare itself, with the same message.
    const paid = await payStake(ctx.app, maker.token, maker.wallet, '0.05');
    await expectRefused(
      await api(ctx).post(
        '/api/dares',
        dareBody(maker.wallet, paid, '0.05', { title: `a${NUL}` }),
        maker.token,
      ),
    );
    await expectRefused(
      await api(ctx).post(
        '/api/dares',
        dareBody(maker.wallet, paid, '0.05', { description: `x${NUL}y` }),
        maker.token,
      ),
    );
    // The stake was not spent by the refusals: the dare is created from it once the texts are clean.
    expect(
      (await api(ctx).post('/api/dares', dareBody(maker.wallet, paid, '0.05'), maker.token)).statusCode,
    ).toBe(201);
    expect(errorLines().slice(before)).toEqual([]);
  });

  it("refuse a proof's description before the entry is relayed", async () => {
    const dare = await createFundedDare(ctx, admin, '0.05');
    const before = errorLines().length;
    const entry = await signedEntry(ctx, maker, dare.id);
    await expectRefused(
      await postSubmit(ctx, maker, dare.id, {
        videoUrl: proofUrlFor(maker),
        description: `My proof${NUL}`,
        signedEntryTransaction: entry,
      }),
    );
    const [row] = await ctx.database.db
      .select({ n: count() })
      .from(dareSubmissions)
      .where(eq(dareSubmissions.dareId, dare.id));
    expect(row!.n).toBe(0);
    // Nothing was relayed: the same prepared entry is still the one handed out, and it still submits.
    const prepared = await ctx.database.db
      .select({ id: preparedTransactions.id })
      .from(preparedTransactions)
      .where(eq(preparedTransactions.dareId, dare.id));
    expect(prepared).toHaveLength(1);
    const ok = await postSubmit(ctx, maker, dare.id, {
      videoUrl: proofUrlFor(maker),
      description: 'My proof',
      signedEntryTransaction: entry,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(errorLines().slice(before)).toEqual([]);
  });
});
