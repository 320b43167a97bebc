import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDare } from '#server/db/factories';
import { dareSubmissions, dares, ledgerEntries, poolContributions } from '#server/db/schema';
import { enterAndSubmit } from './helpers/entries';
import { nameWinner } from './helpers/judging';
import { contribute, createFundedDare, newActor, submitVideo } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

// Issue 13, 'What users hit': the API fields the web app needs to show what can actually be done.

const {
  ctx,
  http,
  actors: { admin, alice, bob },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {} },
});

type AdminDareRow = {
  id: number;
  status: string;
  refunded: boolean;
  refunds: { signature: string; amount: string; walletAddress: string }[];
} & Record<string, unknown>;

const adminDare = async (id: number, title: string): Promise<AdminDareRow> => {
  const res = await http.get(`/api/admin/dares?q=${encodeURIComponent(title)}`, admin.token);
  expect(res.statusCode, res.body).toBe(200);
  const row = (res.json() as AdminDareRow[]).find((dare) => dare.id === id);
  if (!row) throw new Error(`dare ${id} is not in the admin list`);
  return row;
};

describe('GET /api/admin/dares: refunded dares', () => {
  it('keeps every public field and adds refunded + the refund transfers, which is when Activate is refused', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1', { title: 'Refund me please' });
    await contribute(ctx, bob, dare, '0.02');
    const active = await adminDare(dare.id, 'Refund me please');
    expect(active).toMatchObject({ status: 'active', refunded: false, refunds: [] });
    // The existing wire fields are unchanged: the row is the public dare plus the two additions.
    const { refunded: _r, refunds: _f, ...publicPart } = active;
    expect(publicPart).toEqual((await http.get(`/api/dares/${dare.id}`)).json());

    const cancelled = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      admin.token,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refunded = await adminDare(dare.id, 'Refund me please');
    expect(refunded.status).toBe('cancelled');
    expect(refunded.refunded).toBe(true);
    // One landed transfer per contribution, each the ledger's refund line of this dare.
    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.dareId, dare.id));
    const refundLines = ledger.filter((line) => line.kind === 'refund');
    expect(refunded.refunds.map((refund) => refund.signature).sort()).toEqual(
      refundLines.map((line) => line.signature).sort(),
    );
    expect(refunded.refunds.map((refund) => [refund.walletAddress, refund.amount]).sort()).toEqual(
      [
        [alice.wallet.address, '0.1'],
        [bob.wallet.address, '0.02'],
      ].sort(),
    );
    // The same rule refuses Activate on the server.
    const activate = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'active' },
      admin.token,
    );
    expect(activate.statusCode).toBe(409);
  });

  it('leaves a cancelled dare whose money has not gone back unrefunded: Activate works on it', async () => {
    const dare = await createFundedDare(ctx, alice, '0.05', { title: 'Paused not refunded' });
    // Cancelled by the deadline job, before its refund run: nothing went back yet.
    await ctx.database.db.update(dares).set({ status: 'cancelled' }).where(eq(dares.id, dare.id));
    expect(await adminDare(dare.id, 'Paused not refunded')).toMatchObject({
      status: 'cancelled',
      refunded: false,
      refunds: [],
    });
    const activate = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'active' },
      admin.token,
    );
    expect(activate.statusCode, activate.body).toBe(200);
    const contributions = await ctx.database.db
      .select()
      .from(poolContributions)
      .where(eq(poolContributions.dareId, dare.id));
    expect(contributions.every((row) => row.refundedAt === null)).toBe(true);
  });
});

describe('GET /api/stats?major=false', () => {
  it('counts only community dares, as the Community Dares list shows them; /api/stats is unchanged', async () => {
    const before = (await http.get('/api/stats')).json();
    const communityBefore = (await http.get('/api/stats?major=false')).json();
    const { db } = ctx.database;
    const major = await createDare(db, {
      creatorId: admin.id,
      title: 'Major of the week',
      isMajor: true,
      stakeAmount: '2',
    });
    const community = await createDare(db, { creatorId: alice.id, title: 'Small one', stakeAmount: '0.3' });
    // Carol takes part only in the major dare; alice in the community one.
    const carol = await newActor(ctx, 'carol', { sol: '0' });
    await submitVideo(ctx, carol, major.id);
    await submitVideo(ctx, alice, community.id);
    // Something must write through the API for the cached answers to be recomputed.
    await http.post('/api/dev/airdrop', { walletAddress: bob.wallet.address, amount: '0.01' });

    const all = (await http.get('/api/stats')).json();
    const onlyCommunity = (await http.get('/api/stats?major=false')).json();
    const onlyMajor = (await http.get('/api/stats?major=true')).json();
    // Home's answer: pools and participants of every dare, the major one included (as before).
    expect(Number(all.totalRewards) - Number(before.totalRewards)).toBeCloseTo(2.3, 9);
    expect(all.totalDares - before.totalDares).toBe(1);
    // Community Dares: the major dare's pool and its only participant are not counted.
    expect(Number(onlyCommunity.totalRewards) - Number(communityBefore.totalRewards)).toBeCloseTo(0.3, 9);
    expect(onlyCommunity.totalDares).toBe(all.totalDares);
    expect(onlyCommunity.activeDares).toBe(all.activeDares);
    expect(onlyCommunity.daredevils).toBe(all.daredevils);
    const communityPeople = await ctx.database.db
      .selectDistinct({ userId: dareSubmissions.userId })
      .from(dareSubmissions)
      .innerJoin(dares, eq(dares.id, dareSubmissions.dareId))
      .where(eq(dares.isMajor, false));
    expect(onlyCommunity.totalParticipants).toBe(communityPeople.length);
    expect(all.totalParticipants).toBe(onlyCommunity.totalParticipants + 1);
    expect(onlyMajor).toMatchObject({
      totalDares: 1,
      activeDares: 1,
      totalRewards: '2',
      totalParticipants: 1,
    });

    const bad = await http.get('/api/stats?major=yes');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('major must be true or false');
  });
});

describe('GET /api/settings', () => {
  it('tells anyone whether dare creation and registration are on, as the admin saved them', async () => {
    expect((await http.get('/api/settings')).json()).toEqual({
      dareCreationEnabled: true,
      registrationEnabled: true,
    });
    const saved = await http.put('/api/admin/settings', { dareCreationEnabled: false }, admin.token);
    expect(saved.statusCode).toBe(200);
    const visitor = await http.get('/api/settings');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ dareCreationEnabled: false, registrationEnabled: true });
    // Read-only: there is no public way to change them.
    expect((await http.put('/api/settings', { dareCreationEnabled: true })).statusCode).toBe(404);
    await http.put('/api/admin/settings', { dareCreationEnabled: true }, admin.token);
    expect((await http.get('/api/settings', alice.token)).json().dareCreationEnabled).toBe(true);
  });
});

describe('a winning submission in the public lists', () => {
  it("reads status 'winner' (the web shows a Winner badge and disables its vote) and takes no vote", async () => {
    const dare = await createFundedDare(ctx, alice, '0.05');
    const submission = await enterAndSubmit(ctx, bob, dare.id, { description: 'the winning take' });
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    // Program v2: named by the judge's wallet; the winner stands from then on (its payout waits).
    await nameWinner(ctx, admin, submission.id, dare.id);
    const listed = (await http.get(`/api/approved-submissions/${dare.id}`)).json();
    expect(listed).toEqual([expect.objectContaining({ id: submission.id, status: 'winner' })]);
    const vote = await http.post(`/api/submissions/${submission.id}/vote`, undefined, alice.token);
    // Issue 18: the dare has its winner, so no vote on it counts any more: 409 with the reason.
    expect(vote.statusCode).toBe(409);
    expect(vote.json().error).toBe('Voting is closed: this dare already has its winner');
  });
});

describe('a dead session', () => {
  it('answers 401 with code UNAUTHENTICATED, the signal the web app signs out on', async () => {
    const carl = await newActor(ctx, 'carl', { sol: '0' });
    const out = await http.post('/api/auth/logout', undefined, carl.token);
    expect(out.statusCode).toBeLessThan(300);
    const write = await http.post('/api/create-escrow-wallet', undefined, carl.token);
    expect(write.statusCode).toBe(401);
    expect(write.json()).toEqual({
      error: 'Your session has ended. Please sign in again.',
      code: 'UNAUTHENTICATED',
    });
    // A wrong password is a 401 too, but with another code: not a session that ended.
    const login = await http.post('/api/auth/login', { username: 'carl', password: 'wrong-password' });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).not.toBe('UNAUTHENTICATED');
  });
});
