import { describe, expect, it } from 'vitest';
import { enterAndSubmit } from './helpers/entries';
import { nameWinner, passPayoutWindow } from './helpers/judging';
import { type Actor, castVote, contribute, createFundedDare, newActor, submitVideo } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, earner, winsMost, busy, idle },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: {
    admin: { username: 'boss', admin: true },
    // Entrants pay their entries (rent back when each closes): a little SOL each.
    earner: { sol: '1' },
    winsMost: { username: 'winsmost', sol: '1' },
    busy: { username: 'busybee' },
    idle: { username: 'idler', sol: '0' },
  },
});

async function winAndClaim(author: Actor, stake: string) {
  const dare = await createFundedDare(ctx, busy, stake);
  // Submit Video signs the entry on chain: only entrants can be paid.
  const submission = await enterAndSubmit(ctx, author, dare.id);
  await http.put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
  // Program v2: the judge's wallet names the winner, paid once the payout window has passed.
  await nameWinner(ctx, admin, submission.id, dare.id);
  await passPayoutWindow(ctx);
  const paid = await http.post('/api/claims/prize', { submissionId: submission.id }, author.token);
  expect(paid.statusCode, paid.body).toBe(200);
  return { dare, submission, claim: paid.json() };
}

describe('leaderboard', () => {
  it('is empty-safe: categories are null when nobody scores', async () => {
    const res = await http.get('/api/leaderboard');
    expect(res.statusCode).toBe(200);
    expect(res.json().categories).toEqual({ mostWins: null, highestEarner: null, mostActive: null });
  });

  it('computes each category for its own measure, and quick stats over every user', async () => {
    await winAndClaim(earner, '1');
    await winAndClaim(winsMost, '0.1');
    await winAndClaim(winsMost, '0.1');
    const extra = await createFundedDare(ctx, busy, '0.05');
    await contribute(ctx, busy, extra, '0.01');
    const sub = await submitVideo(ctx, earner, extra.id);
    await castVote(ctx, busy, sub);

    const board = (await http.get('/api/leaderboard')).json();
    expect(board.topEarners.map((e: { username: string }) => e.username).slice(0, 2)).toEqual([
      'earner',
      'winsmost',
    ]);
    expect(board.topEarners.length).toBeLessThanOrEqual(10);
    expect(board.topEarners[0]).toEqual({
      id: earner.id,
      username: 'earner',
      dareWins: 1,
      totalEarnings: '1',
      walletAddress: earner.wallet.address,
      reputation: 11,
    });
    expect(board.categories.highestEarner.username).toBe('earner');
    expect(board.categories.mostWins).toMatchObject({ username: 'winsmost', dareWins: 2 });
    // busybee: 4 stakes + 1 pool addition + 1 vote.
    expect(board.categories.mostActive).toMatchObject({ username: 'busybee', activityCount: 6 });
    expect(board.stats).toEqual({ totalUsers: 5, totalWinnings: '1.2', totalWins: 3 });
    expect(board.topEarners.map((e: { username: string }) => e.username)).toContain('idler');
  });

  it('ranks players only: an admin, however active, is in no list and no category', async () => {
    // The admin becomes the most active user by far: 3 stakes and 3 votes.
    for (let i = 0; i < 2; i += 1) await createFundedDare(ctx, admin, '0.05');
    const dare = await createFundedDare(ctx, admin, '0.05');
    for (const name of ['author1', 'author2', 'author3']) {
      const author = await newActor(ctx, name, { sol: '0' });
      await castVote(ctx, admin, await submitVideo(ctx, author, dare.id));
    }
    const board = (await http.get('/api/leaderboard')).json();
    expect(board.topEarners.map((e: { username: string }) => e.username)).not.toContain('boss');
    expect(board.categories.mostActive.username).not.toBe('boss');
  });
});

describe('profile', () => {
  it('needs a session', async () => {
    expect((await http.get('/api/profile')).statusCode).toBe(401);
    expect((await http.get('/api/claims')).statusCode).toBe(401);
    expect((await http.get('/api/winning-submissions')).statusCode).toBe(401);
  });

  it("shows the user's record, counts and real recent activity, newest first", async () => {
    const res = await http.get('/api/profile', earner.token);
    expect(res.statusCode).toBe(200);
    const profile = res.json();
    expect(profile.user).toMatchObject({
      username: 'earner',
      dareWins: 1,
      totalEarnings: '1',
      reputation: 11,
    });
    expect(profile.user).not.toHaveProperty('password');
    expect(profile.stats).toEqual({
      submissions: 2,
      approvedSubmissions: 1,
      votesCast: 0,
      contributions: 0,
      totalContributed: '0',
      claims: 1,
      pendingClaims: 0,
    });
    const types = profile.recentActivity.map((item: { type: string }) => item.type).sort();
    expect(types).toEqual(['claim', 'submission', 'submission']);
    const claim = profile.recentActivity.find((item: { type: string }) => item.type === 'claim');
    expect(claim).toMatchObject({ amount: '1', status: 'paid', transactionSignature: expect.any(String) });

    const busyProfile = (await http.get('/api/profile', busy.token)).json();
    expect(busyProfile.stats).toMatchObject({ contributions: 5, votesCast: 1, totalContributed: '1.26' });
    const times = busyProfile.recentActivity.map((item: { at: string }) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(
      busyProfile.recentActivity.some(
        (item: { type: string; status: string }) => item.type === 'contribution' && item.status === 'stake',
      ),
    ).toBe(true);

    const idleProfile = (await http.get('/api/profile', idle.token)).json();
    expect(idleProfile.recentActivity).toEqual([]);
  });
});
