import { address } from '@solana/kit';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { dareSubmissions, submissionVotes } from '#server/db/schema';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';
import { createPayoutsService } from '#server/features/payouts/service';
import { createRefundsService } from '#server/features/refunds/service';
import { reconcileEscrows } from '#server/ledger/reconcile';
import type { TestContext } from './app';
import { airdrop, dareBody, payStake, payTo } from './money';
import { bearer, createTestWallet, registerWithWallet, type TestWallet } from './wallet';

/** Shared by the issue 6 API tests (admin, claims, major dare, refunds, leaderboard, profile). */
export interface Actor {
  wallet: TestWallet;
  token: string;
  id: number;
  username: string;
}

export async function newActor(
  ctx: TestContext,
  username: string,
  options: { sol?: string; admin?: boolean } = {},
): Promise<Actor> {
  const wallet = await createTestWallet();
  const { token, user } = await registerWithWallet(ctx.app, wallet, username);
  const sol = options.sol ?? '10';
  if (sol !== '0') await airdrop(ctx.app, wallet, sol);
  if (options.admin) await setAdminByUsernameOrWallet(ctx.database.db, username, true, new Date());
  return { wallet, token, id: user.id, username };
}

export function api(ctx: TestContext) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    token?: string,
  ) =>
    ctx.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: token ? bearer(token) : {},
    });
  return {
    get: (url: string, token?: string) => call('GET', url, undefined, token),
    post: (url: string, payload: unknown, token?: string) => call('POST', url, payload, token),
    put: (url: string, payload: unknown, token?: string) => call('PUT', url, payload, token),
    patch: (url: string, payload: unknown, token?: string) => call('PATCH', url, payload, token),
    del: (url: string, token?: string) => call('DELETE', url, undefined, token),
  };
}

/** Create dare steps 3 to 7 over HTTP. */
export async function createFundedDare(ctx: TestContext, user: Actor, stake: string, overrides: object = {}) {
  const paid = await payStake(ctx.app, user.token, user.wallet, stake);
  const res = await api(ctx).post('/api/dares', dareBody(user.wallet, paid, stake, overrides), user.token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; escrowWallet: string; totalPool: string };
}

export async function contribute(
  ctx: TestContext,
  user: Actor,
  dare: { id: number; escrowWallet: string },
  amount: string,
) {
  const paid = await payTo(ctx.app, user.token, user.wallet, dare.escrowWallet, amount);
  const res = await api(ctx).post(
    `/api/dares/${dare.id}/add-pool`,
    { amount, userWallet: user.wallet.address, transactionSignature: paid.signature },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A submission row as issue 5's submit endpoint writes it (that feature is not this suite's subject). */
export async function submitVideo(ctx: TestContext, user: Actor, dareId: number, description = 'My proof') {
  const [row] = await ctx.database.db
    .insert(dareSubmissions)
    .values({ dareId, userId: user.id, videoUrl: `https://videos.example/${user.username}.mp4`, description })
    .returning();
  return row!;
}

export async function castVote(ctx: TestContext, voter: Actor, submission: { id: number; dareId: number }) {
  await ctx.database.db.transaction(async (tx) => {
    await tx
      .insert(submissionVotes)
      .values({ submissionId: submission.id, userId: voter.id, dareId: submission.dareId });
    await tx
      .update(dareSubmissions)
      .set({ votes: sql`${dareSubmissions.votes} + 1` })
      .where(eq(dareSubmissions.id, submission.id));
  });
}

export async function lamportsOf(ctx: TestContext, wallet: string): Promise<bigint> {
  const { value } = await ctx.chain.rpc.getBalance(address(wallet), { commitment: 'confirmed' }).send();
  return value;
}

export async function expectReconciled(ctx: TestContext) {
  const report = await reconcileEscrows(ctx.database.db, ctx.chain.rpc);
  expect(report.differences).toEqual([]);
  return report;
}

/** The refund job the server runs every minute, driven with the test clock. */
export function refundJob(ctx: TestContext) {
  const clock = () => ctx.clock.now;
  const payouts = createPayoutsService({
    db: ctx.database.db,
    chain: ctx.chain,
    escrowKeys: ctx.escrowKeys,
    clock,
  });
  return createRefundsService({ db: ctx.database.db, chain: ctx.chain, clock, payouts });
}
