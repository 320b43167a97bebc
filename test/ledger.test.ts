import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dares, ledgerEntries } from '#server/db/schema';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { dareBody, payStake, payTo, sendOwnTransfer, waitUntilLanded } from './helpers/money';
import { setupApiSuite } from './helpers/suite';
import { bearer, type TestWallet } from './helpers/wallet';

interface User {
  wallet: TestWallet;
  token: string;
}

const { ctx, actors } = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  // The chain lives in the data folder, so a restart reloads it from disk like a real one.
  // The last test sends SOL straight to a dare's escrow to show reconcile reports it: a dare's
  // escrow sweeps such SOL only at its last payout or refund, so the difference stays.
  context: { persistentChain: true, leavesReconcileDifferences: true },
  actors: { ann: {}, ben: {}, cat: {} },
});
const users: User[] = [actors.ann, actors.ben, actors.cat];

const post = (url: string, payload: unknown, token: string) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers: bearer(token) });

async function rowCounts() {
  const [d] = await ctx.database.db.select({ n: count() }).from(dares);
  const [l] = await ctx.database.db.select({ n: count() }).from(ledgerEntries);
  return { dares: d!.n, ledger: l!.n };
}

describe('the ledger against the chain', () => {
  let firstDare: { id: number; escrowWallet: string };
  let firstBody: object;
  let firstCreator: User;

  it('reconciles to zero after several dares and contributions', async () => {
    const stakes = ['0.5', '1.25', '0.01', '5'];
    const created: { id: number; escrowWallet: string }[] = [];
    for (const [i, stake] of stakes.entries()) {
      const user = users[i % users.length]!;
      const paid = await payStake(ctx.app, user.token, user.wallet, stake);
      const body = dareBody(user.wallet, paid, stake, { title: `Dare ${i}` });
      const res = await post('/api/dares', body, user.token);
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json());
      if (i === 0) {
        firstBody = body;
        firstCreator = user;
      }
    }
    firstDare = created[0]!;
    const contributions: [number, number, string][] = [
      [1, 0, '0.3'],
      [2, 0, '0.010000001'],
      [0, 1, '2'],
      [2, 3, '0.75'],
      [1, 3, '0.75'],
    ];
    for (const [userIndex, dareIndex, amount] of contributions) {
      const user = users[userIndex]!;
      const dare = created[dareIndex]!;
      const { signature } = await payTo(ctx.app, user.token, user.wallet, dare.escrowWallet, amount);
      const res = await post(
        `/api/dares/${dare.id}/add-pool`,
        { amount, userWallet: user.wallet.address, transactionSignature: signature },
        user.token,
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const pools = await Promise.all(
      created.map(async (dare) => (await ctx.app.inject({ url: `/api/dares/${dare.id}` })).json().totalPool),
    );
    expect(pools).toEqual(['0.810000001', '3.25', '0.01', '6.5']);

    const report = await reconcileEscrows(ctx.database.db, ctx.chain.rpc);
    expect(report).toEqual({ checked: 4, differences: [], foreign: [] });
  });

  it('still refuses a replayed signature after a restart, and still knows every balance', async () => {
    const before = await rowCounts();
    await ctx.restart();
    const again = await post('/api/dares', firstBody, firstCreator.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: firstDare.id, totalPool: '0.810000001' });
    const other = await post('/api/dares', { ...firstBody, title: 'Another' }, firstCreator.token);
    expect(other.statusCode).toBe(409);
    expect(await rowCounts()).toEqual(before);
    expect(await reconcileEscrows(ctx.database.db, ctx.chain.rpc)).toEqual({
      checked: 4,
      differences: [],
      foreign: [],
    });
  });

  it('reports SOL that reached an escrow without being credited', async () => {
    const user = users[0]!;
    const signature = await sendOwnTransfer(ctx.chain, user.wallet, {
      to: firstDare.escrowWallet,
      sol: '0.01',
    });
    await waitUntilLanded(ctx.chain, signature);
    const report = await reconcileEscrows(ctx.database.db, ctx.chain.rpc);
    expect(report.differences).toEqual([
      {
        escrowWallet: firstDare.escrowWallet,
        ledger: 810_000_001n,
        onChain: 820_000_001n,
        difference: 10_000_000n,
      },
    ]);
  });
});
