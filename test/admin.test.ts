import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import { claims, dareSubmissions, dares, ledgerEntries, poolContributions, users } from '#server/db/schema';
import { enterAndSubmit } from './helpers/entries';
import { nameWinner, vaultV2 } from './helpers/judging';
import { contribute, createFundedDare, expectReconciled, lamportsOf, submitVideo } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, alice, bob, carol },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { admin: { username: 'boss', admin: true }, alice: {}, bob: {}, carol: {} },
});

describe('every admin route is admin-only, on the server', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/fee-payer'],
    ['GET', '/api/admin/dares?q=x'],
    ['GET', '/api/admin/submissions'],
    ['GET', '/api/admin/users'],
    ['PATCH', '/api/admin/dares/1/status', { status: 'cancelled' }],
    ['PUT', '/api/admin/submissions/1', { status: 'approved', is_featured: true }],
    ['DELETE', '/api/admin/dares/1'],
    ['POST', '/api/admin/submissions/1/mark-winner', { dareId: 1 }],
    ['POST', '/api/admin/major-dare', { title: 'x' }],
    ['POST', '/api/admin/major-dare/1/winner', { submissionId: 1, winnerType: 'admin' }],
    ['GET', '/api/admin/settings'],
    ['PUT', '/api/admin/settings', { dareCreationEnabled: false }],
  ];

  it.each(routes)(
    '%s %s: 403 for a normal user, 401 for a visitor, and nothing changes',
    async (method, url, payload) => {
      const dare = await createFundedDare(ctx, alice, '0.05');
      const before = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
      const asUser = await ctx.app.inject({
        method: method as 'GET',
        url: url.replace('/1', `/${dare.id}`),
        payload: payload as object,
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect(asUser.statusCode, asUser.body).toBe(403);
      expect(asUser.json()).toMatchObject({ code: 'ADMIN_ONLY' });
      const asVisitor = await ctx.app.inject({ method: method as 'GET', url, payload: payload as object });
      expect(asVisitor.statusCode).toBe(401);
      expect(await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id))).toEqual(before);
    },
  );
});

describe('admin reads', () => {
  it('stats count users, dares, active dares, SOL staked and paid out, pending submissions', async () => {
    const res = await http.get('/api/admin/stats', admin.token);
    expect(res.statusCode).toBe(200);
    const stats = res.json();
    expect(stats.totalUsers).toBe(await ctx.database.db.$count(users));
    expect(stats.totalDares).toBe(await ctx.database.db.$count(dares));
    expect(stats.activeDares).toBe(await ctx.database.db.$count(dares, eq(dares.status, 'active')));
    expect(stats.totalStaked).toMatch(/^\d+(\.\d+)?$/);
    expect(stats.paidOut).toBe('0');
    expect(stats.pendingSubmissions).toBe(
      await ctx.database.db.$count(dareSubmissions, eq(dareSubmissions.status, 'pending')),
    );
  });

  it('lists dares with search, users and submissions with the spec shapes', async () => {
    const dare = await createFundedDare(ctx, alice, '0.05', { title: 'Juggle 100% flaming torches' });
    await submitVideo(ctx, bob, dare.id, 'three torches');
    const found = await http.get(`/api/admin/dares?q=${encodeURIComponent('100%')}`, admin.token);
    expect(found.json().map((d: { id: number }) => d.id)).toEqual([dare.id]);
    expect((await http.get('/api/admin/dares?q=nomatchatall', admin.token)).json()).toEqual([]);
    // major=true lists only major dares, major=false only community ones; anything else is a 400.
    const communityOnly = (await http.get('/api/admin/dares?q=torches&major=false', admin.token)).json();
    expect(communityOnly.map((d: { id: number }) => d.id)).toEqual([dare.id]);
    expect((await http.get('/api/admin/dares?q=torches&major=true', admin.token)).json()).toEqual([]);
    const bad = await http.get('/api/admin/dares?major=yes', admin.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('major must be true or false');
    // The search matches usernames and wallet addresses (any case): a random wallet may hold 'bob'.
    type ListedUser = { id: number; username: string; walletAddress: string | null; isAdmin: boolean };
    const everyone = (await http.get('/api/admin/users', admin.token)).json() as ListedUser[];
    const usersList = (await http.get('/api/admin/users?q=bob', admin.token)).json() as ListedUser[];
    expect(usersList.map((u) => u.id).sort()).toEqual(
      everyone
        .filter((u) => /bob/i.test(u.username) || /bob/i.test(u.walletAddress ?? ''))
        .map((u) => u.id)
        .sort(),
    );
    expect(usersList).toContainEqual(expect.objectContaining({ username: 'bob', isAdmin: false }));
    for (const listed of usersList) expect(listed).not.toHaveProperty('password');
    const subs = (await http.get(`/api/admin/submissions?dareId=${dare.id}`, admin.token)).json();
    expect(subs).toEqual([
      expect.objectContaining({
        dareId: dare.id,
        dare_id: dare.id,
        status: 'pending',
        is_featured: false,
        video_url: expect.stringContaining('bob'),
        dares: { title: 'Juggle 100% flaming torches', is_major: false, status: 'active' },
        users: { username: 'bob', walletAddress: bob.wallet.address },
      }),
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents every issue 6 route', async () => {
    const res = await http.get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      '/api/admin/stats',
      '/api/admin/dares',
      '/api/admin/dares/{id}',
      '/api/admin/dares/{id}/status',
      '/api/admin/submissions',
      '/api/admin/submissions/{id}',
      '/api/admin/submissions/{id}/mark-winner',
      '/api/admin/users',
      '/api/admin/fee-payer',
      '/api/admin/major-dare',
      '/api/admin/major-dare/{dareId}/winner',
      '/api/major-dare',
      '/api/claims',
      '/api/claims/prize',
      '/api/winning-submissions',
      '/api/leaderboard',
      '/api/profile',
    ])
      expect(paths).toContain(path);
  });
});

describe('fee payer', () => {
  it('is funded on the embedded chain at start and reported to admins', async () => {
    const res = await http.get('/api/admin/fee-payer', admin.token);
    expect(res.statusCode).toBe(200);
    const feePayer = await ctx.escrowKeys.feePayer();
    expect(res.json()).toEqual({
      address: feePayer.address,
      balance: (await lamportsOf(ctx, feePayer.address)).toString(),
      payoutsLeft: Number((await lamportsOf(ctx, feePayer.address)) / 5_000n),
      minBalance: '500000000',
      low: false,
    });
    expect(BigInt(res.json().balance)).toBeGreaterThanOrEqual(100_000_000n);
  });
});

describe('moderation', () => {
  it('approves (+1 reputation), features, rejects (reputation taken back); winner status only by mark-winner', async () => {
    const dare = await createFundedDare(ctx, alice, '0.05');
    const submission = await submitVideo(ctx, bob, dare.id);
    const reputation = async () =>
      (await ctx.database.db.select().from(users).where(eq(users.id, bob.id)))[0]!.reputation;
    const start = await reputation();
    const approved = await http.put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'approved', is_featured: true },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', isFeatured: true, is_featured: true });
    expect(await reputation()).toBe(start + 1);
    // Approving again does not add again.
    await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    expect(await reputation()).toBe(start + 1);
    const rejected = await http.put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'rejected', is_featured: false },
      admin.token,
    );
    expect(rejected.json()).toMatchObject({ status: 'rejected', isFeatured: false });
    expect(await reputation()).toBe(start);
    const winner = await http.put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'winner' },
      admin.token,
    );
    expect(winner.statusCode).toBe(400);
    const missing = await http.put('/api/admin/submissions/999999', { status: 'approved' }, admin.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Submission not found');
  });
});

describe('mark winner', () => {
  // Program v2: the judge's own wallet names the winner (propose), the pool waits for the payout
  // window; the naming itself completes the dare and writes the one pending claim.
  it('a judge names the winner of the whole pool: the dare completes with one pending claim; a second winner is 409', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    await contribute(ctx, bob, dare, '0.02');
    const first = await enterAndSubmit(ctx, bob, dare.id);
    const second = await enterAndSubmit(ctx, carol, dare.id);
    const pending = await http.post(
      `/api/admin/submissions/${first.id}/mark-winner`,
      { dareId: dare.id },
      admin.token,
    );
    expect(pending.statusCode).toBe(400);
    expect(pending.json().error).toBe('Only an approved submission can be marked as the winner');
    for (const s of [first, second])
      await http.put(`/api/admin/submissions/${s.id}`, { status: 'approved' }, admin.token);
    const wrongDare = await http.post(
      `/api/admin/submissions/${first.id}/mark-winner`,
      { dareId: dare.id + 1000 },
      admin.token,
    );
    expect(wrongDare.statusCode).toBe(400);

    const proposal = await nameWinner(ctx, admin, first.id, dare.id);
    expect(proposal.winners).toEqual([
      { submissionId: first.id, walletAddress: bob.wallet.address, amount: '0.12' },
    ]);
    const again = await http.post(
      `/api/admin/submissions/${second.id}/mark-winner`,
      { dareId: dare.id },
      admin.token,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(JUDGING_MESSAGES.proposalStanding);
    const written = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(written).toEqual([
      expect.objectContaining({
        amount: '0.120000000',
        status: 'pending',
        claimType: 'dare_winner',
        submissionId: first.id,
        userId: bob.id,
      }),
    ]);
    const [row] = await ctx.database.db.select().from(dares).where(eq(dares.id, dare.id));
    expect(row!.status).toBe('completed');
    const [sub] = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.id, first.id));
    expect(sub!.status).toBe('winner');
    // A dare whose winner waits for its window can neither be cancelled nor deleted.
    const cancel = await http.patch(
      `/api/admin/dares/${dare.id}/status`,
      { status: 'cancelled' },
      admin.token,
    );
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error).toBe(JUDGING_MESSAGES.cannotCancelProposed);
    const del = await http.del(`/api/admin/dares/${dare.id}`, admin.token);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe(JUDGING_MESSAGES.cannotCancelProposed);
  });
});

describe('delete', () => {
  it('refunds a dare that holds money first, then deletes it; the ledger keeps the history', async () => {
    const dare = await createFundedDare(ctx, alice, '0.1');
    await contribute(ctx, bob, dare, '0.03');
    // Program v2: the creator's wallet paid the vault's rent, and each payer's wallet the rent of
    // what it created: the closes give every rent back to whoever paid it.
    const vaultRent = (await vaultV2(ctx, dare.vault)).rent;
    const { receipts } = await listVaultRecords(ctx.chain.rpc, ctx.escrowProgramV2Id, dare.vault);
    expect(receipts).toHaveLength(2);
    const receiptRentPaidBy = (wallet: string) =>
      receipts.filter((r) => r.rentPayer === wallet).reduce((sum, r) => sum + r.rent, 0n);
    const aliceBefore = await lamportsOf(ctx, alice.wallet.address);
    const bobBefore = await lamportsOf(ctx, bob.wallet.address);
    // A client may send a JSON content type with no body (docs/product.md#admin-calls): still a plain delete.
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/admin/dares/${dare.id}`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      id: dare.id,
      refunds: {
        refunded: 2,
        refundedAmount: '0.13',
        failed: 0,
        failureReason: null,
        // Each payer's refund, for the toast's links (one transaction may refund several receipts,
        // in no particular order).
        transfers: expect.any(Array),
      },
    });
    expect(res.json().refunds.transfers).toHaveLength(2);
    expect(res.json().refunds.transfers).toEqual(
      expect.arrayContaining([
        { signature: expect.any(String), amount: '0.03', walletAddress: bob.wallet.address },
        { signature: expect.any(String), amount: '0.1', walletAddress: alice.wallet.address },
      ]),
    );
    expect(await lamportsOf(ctx, alice.wallet.address)).toBe(
      aliceBefore + 100_000_000n + vaultRent + receiptRentPaidBy(alice.wallet.address),
    );
    expect(await lamportsOf(ctx, bob.wallet.address)).toBe(
      bobBefore + 30_000_000n + receiptRentPaidBy(bob.wallet.address),
    );
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    expect((await http.get(`/api/dares/${dare.id}`)).statusCode).toBe(404);
    expect(await ctx.database.db.$count(poolContributions, eq(poolContributions.dareId, dare.id))).toBe(0);
    const ledger = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.dareId, dare.id));
    expect(ledger.map((entry) => `${entry.kind}:${entry.direction}:${entry.amount}`).sort()).toEqual([
      'contribution:1:0.030000000',
      'refund:-1:0.030000000',
      'refund:-1:0.100000000',
      'stake:1:0.100000000',
    ]);
    await expectReconciled(ctx);
    expect((await http.del(`/api/admin/dares/${dare.id}`, admin.token)).statusCode).toBe(404);
  });
});
