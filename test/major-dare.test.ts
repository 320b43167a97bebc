import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { normalizeSol } from '#contract/money';
import { DAY_MS } from '#contract/time';
import { claims, dares, ledgerEntries, users } from '#server/db/schema';
import { ENTRY_RENT, enterAndSubmit, fundEntries, walletSigns } from './helpers/entries';
import { passPayoutWindow } from './helpers/judging';
import { endLiveMajorDare, payStake } from './helpers/money';
import { type Actor, castVote, contribute, expectReconciled, lamportsOf, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  http,
  actors: { admin, picked, popular, latecomer },
} = setupApiSuite({
  // A prize maximum of its own (issue 13), set low enough to test with test SOL.
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000', MAJOR_PRIZE_MAX_SOL: '7' },
  actors: {
    admin: { username: 'boss', admin: true },
    picked: { sol: '0' },
    popular: { sol: '0' },
    latecomer: { sol: '0' },
  },
});
let voters: Actor[];

beforeAll(async () => {
  voters = await Promise.all(
    ['voter1', 'voter2', 'voter3', 'voter4'].map((name) => newActor(ctx, name, { sol: '1' })),
  );
});

const alice = () => voters[0]!.token;
const deadline = () => new Date(ctx.clock.now.getTime() + 7 * DAY_MS).toISOString();

async function createMajor(prizeAmount: string, overrides: object = {}) {
  await endLiveMajorDare(ctx.app, admin.token);
  const until = deadline();
  const paid = await payStake(ctx.app, admin.token, admin.wallet, prizeAmount, {
    kind: 'major',
    deadline: until,
  });
  return http.post(
    '/api/admin/major-dare',
    {
      title: 'Weekly: cold plunge',
      description: 'Five minutes in ice water.',
      category: 'endurance',
      difficulty: 'hard',
      prizeAmount,
      deadline: until,
      maxParticipants: 100,
      transactionSignature: paid.signature,
      escrowWalletAddress: paid.escrow,
      ...overrides,
    },
    admin.token,
  );
}

describe('major dare', () => {
  it('is {isActive:false} until an admin creates one, funded on chain through the verified flow', async () => {
    expect((await http.get('/api/major-dare')).json()).toEqual({ isActive: false });
    const unpaid = await http.post(
      '/api/admin/major-dare',
      {
        title: 'x',
        description: 'y',
        category: 'z',
        difficulty: 'easy',
        prizeAmount: '0.1',
        deadline: deadline(),
        maxParticipants: 5,
        transactionSignature: '5'.repeat(88),
        escrowWalletAddress: admin.wallet.address,
      },
      admin.token,
    );
    expect(unpaid.statusCode).toBe(400);
    expect(unpaid.json().code).toBe('PAYMENT_NOT_VERIFIED');
    const until = deadline();
    const paid = await payStake(ctx.app, admin.token, admin.wallet, '0.2', {
      kind: 'major',
      deadline: until,
    });
    const body = {
      title: 'x',
      description: 'y',
      category: 'z',
      difficulty: 'easy',
      prizeAmount: '0.3',
      deadline: until,
      maxParticipants: 5,
      transactionSignature: paid.signature,
      escrowWalletAddress: paid.escrow,
    };
    const mismatch = await http.post('/api/admin/major-dare', body, admin.token);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toBe('The prize amount does not match the payment');
    expect(await ctx.database.db.$count(dares)).toBe(0);
    const normal = await http.post('/api/admin/major-dare', body, alice());
    expect(normal.statusCode).toBe(403);
    // The same payment with the right amount creates it.
    const created = await http.post('/api/admin/major-dare', { ...body, prizeAmount: '0.2' }, admin.token);
    expect(created.statusCode, created.body).toBe(201);
    expect((await http.get('/api/major-dare')).json()).toMatchObject({
      isActive: true,
      id: created.json().id,
      totalPool: '0.2',
    });
    // The Major Dares tab's list: major=true holds it, major=false does not.
    const ids = async (major: boolean) =>
      (await http.get(`/api/admin/dares?major=${major}`, admin.token))
        .json()
        .map((d: { id: number }) => d.id);
    expect(await ids(true)).toEqual([created.json().id]);
    expect(await ids(false)).not.toContain(created.json().id);
    await expectReconciled(ctx);
  });

  it('splits the pool 70/30 in exact lamports, the remainder lamport to the admin winner', async () => {
    const created = await createMajor('0.09');
    expect(created.statusCode, created.body).toBe(201);
    const dare = created.json();
    expect(dare).toMatchObject({
      isMajor: true,
      is_major: true,
      category: 'endurance',
      totalPool: '0.09',
      status: 'active',
    });
    // 0.01 SOL and 7 lamports more: 100,000,007 does not split evenly.
    await contribute(ctx, voters[0]!, dare, '0.010000007');

    const current = (await http.get('/api/major-dare')).json();
    expect(current).toMatchObject({
      isActive: true,
      id: dare.id,
      totalPool: '0.100000007',
      adminPrize: '0.070000005',
      communityPrize: '0.030000002',
      status: 'active',
      participantCount: 0,
    });

    // Submit Video: each entrant's wallet signs `enter` with its proof (only entrants can be paid).
    for (const entrant of [picked, popular, latecomer]) await fundEntries(ctx, entrant.wallet.address);
    const a = await enterAndSubmit(ctx, picked, dare.id);
    const b = await enterAndSubmit(ctx, popular, dare.id);
    const c = await enterAndSubmit(ctx, latecomer, dare.id);
    for (const s of [a, b, c])
      await http.put(`/api/admin/submissions/${s.id}`, { status: 'approved' }, admin.token);
    expect((await http.get('/api/major-dare')).json()).toMatchObject({
      participantCount: 3,
      submissionCount: 3,
    });
    await castVote(ctx, voters[0]!, a);
    for (const v of voters.slice(0, 2)) await castVote(ctx, v, b);
    for (const v of voters.slice(2, 4)) await castVote(ctx, v, c);

    // Community: the most votes, the earliest on a tie (b before c).
    const notTop = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: c.id, winnerType: 'community' },
      admin.token,
    );
    expect(notTop.statusCode).toBe(409);
    expect(notTop.json().error).toBe(
      'The community winner must be the approved submission with the most votes',
    );
    const community = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: b.id, winnerType: 'community' },
      admin.token,
    );
    expect(community.statusCode, community.body).toBe(201);
    // Votes only pick the community winner: once it is picked, a vote changes nothing.
    const late = await http.post(`/api/submissions/${c.id}/vote`, undefined, voters[0]!.token);
    expect([late.statusCode, late.json().error]).toEqual([
      409,
      'Voting is closed: the community winner has been picked',
    ]);
    expect(community.json()).toMatchObject({
      amount: '0.030000002',
      claimType: 'major_community',
      userId: popular.id,
    });
    const adminPick = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: a.id, winnerType: 'admin' },
      admin.token,
    );
    // The pick completing the pair answers the propose of both winners (program v2), for the
    // judge's own wallet (the admin's: the first admin is the tests' judge) to sign.
    expect(adminPick.statusCode, adminPick.body).toBe(200);
    const offered = adminPick.json() as { transaction: string; winners: unknown[] };
    expect(offered.winners).toEqual([
      { submissionId: a.id, walletAddress: picked.wallet.address, amount: '0.070000005' },
      { submissionId: b.id, walletAddress: popular.wallet.address, amount: '0.030000002' },
    ]);
    const twice = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: c.id, winnerType: 'admin' },
      admin.token,
    );
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('The admin winner of this major dare is already selected');
    const relayed = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      {
        submissionId: a.id,
        winnerType: 'admin',
        signedTransaction: await walletSigns(admin.wallet, offered.transaction),
      },
      admin.token,
    );
    expect(relayed.statusCode, relayed.body).toBe(200);
    const { proposal } = relayed.json() as { proposal: { winners: unknown[]; executesAt: string } };
    expect(proposal.winners).toEqual(offered.winners);
    const picks = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(
      picks.map((claim) => [claim.claimType, claim.userId, normalizeSol(claim.amount), claim.status]).sort(),
    ).toEqual([
      ['major_admin', picked.id, '0.070000005', 'pending'],
      ['major_community', popular.id, '0.030000002', 'pending'],
    ]);
    // Once proposed, no pick changes the winners while the proposal stands.
    const afterProposal = await http.post(
      `/api/admin/major-dare/${dare.id}/winner`,
      { submissionId: c.id, winnerType: 'admin' },
      admin.token,
    );
    expect(afterProposal.statusCode).toBe(409);
    expect(afterProposal.json().error).toBe(JUDGING_MESSAGES.proposalStanding);
    expect((await http.get('/api/major-dare')).json()).toMatchObject({ status: 'completed', isActive: true });
    // The room hears about both winners (and the pool addition and approvals before them).
    const room = async () =>
      ((await http.get(`/api/chat-messages?dareId=${dare.id}`)).json() as { message: string }[]).map(
        (m) => m.message,
      );
    await expect
      .poll(room)
      .toEqual(
        expect.arrayContaining([
          `${popular.username} won the community vote!`,
          `${picked.username} won the admin's pick!`,
        ]),
      );

    const pickedBefore = await lamportsOf(ctx, picked.wallet.address);
    const popularBefore = await lamportsOf(ctx, popular.wallet.address);
    // Nothing is paid before the guardian's window ends: Claim Prize says when.
    const early = await http.post('/api/claims/prize', { submissionId: a.id }, picked.token);
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json()).toMatchObject({ executesAt: proposal.executesAt });
    expect(await lamportsOf(ctx, picked.wallet.address)).toBe(pickedBefore);
    await passPayoutWindow(ctx);
    // One execute pays both winners: the first claim sends it, both claims record its signature.
    const paidA = await http.post('/api/claims/prize', { submissionId: a.id }, picked.token);
    expect(paidA.statusCode, paidA.body).toBe(200);
    // The other winner's Claim Prize finds its share paid by that execute: nothing is sent again.
    const paidB = await http.post('/api/claims/prize', { submissionId: b.id }, popular.token);
    expect(paidB.statusCode, paidB.body).toBe(200);
    expect(paidB.json()).toMatchObject({ status: 'paid', transactionHash: paidA.json().transactionHash });
    const both = await ctx.database.db.select().from(claims).where(eq(claims.dareId, dare.id));
    expect(both.map((claim) => claim.transactionHash)).toEqual([
      paidA.json().transactionHash,
      paidA.json().transactionHash,
    ]);
    // Each share, and each winner's entry rent back (its wallet paid it when entering).
    expect((await lamportsOf(ctx, picked.wallet.address)) - pickedBefore).toBe(70_000_005n + ENTRY_RENT);
    expect((await lamportsOf(ctx, popular.wallet.address)) - popularBefore).toBe(30_000_002n + ENTRY_RENT);
    expect(await lamportsOf(ctx, dare.escrowWallet)).toBe(0n);
    const payouts = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'payout'));
    expect(payouts.map((entry) => entry.amount).sort()).toEqual(['0.030000002', '0.070000005']);
    await expectReconciled(ctx);
    const [winnerRow] = await ctx.database.db.select().from(users).where(eq(users.id, picked.id));
    expect(winnerRow).toMatchObject({ dareWins: 1, totalEarnings: '0.070000005' });
    expect(await ctx.database.db.$count(claims, eq(claims.status, 'paid'))).toBe(2);
  });

  it('refuses a prize whose vault was built for another deadline, and returns the SOL to the admin (decision 037)', async () => {
    await endLiveMajorDare(ctx.app, admin.token);
    const until = deadline();
    const adminBefore = await lamportsOf(ctx, admin.wallet.address);
    const paid = await payStake(ctx.app, admin.token, admin.wallet, '0.05', {
      kind: 'major',
      deadline: until,
    });
    const refused = await http.post(
      '/api/admin/major-dare',
      {
        title: 'Weekly: wrong day',
        description: 'Prepared for one deadline, sent with another.',
        category: 'skill',
        difficulty: 'easy',
        prizeAmount: '0.05',
        deadline: new Date(new Date(until).getTime() + DAY_MS).toISOString(),
        maxParticipants: 10,
        transactionSignature: paid.signature,
        escrowWalletAddress: paid.escrow,
      },
      admin.token,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error).toBe('The deadline does not match the one the payment was prepared with');
    expect(await ctx.database.db.$count(dares, eq(dares.escrowWallet, paid.escrow))).toBe(0);
    // Booked in, then refunded out within the request: the vault is closed and the books agree.
    const lines = await ctx.database.db
      .select({ kind: ledgerEntries.kind, direction: ledgerEntries.direction, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.escrowWallet, paid.escrow))
      .orderBy(ledgerEntries.id);
    expect(lines).toEqual([
      { kind: 'stake', direction: 1, amount: '0.050000000' },
      { kind: 'refund', direction: -1, amount: '0.050000000' },
    ]);
    expect(await lamportsOf(ctx, paid.escrow)).toBe(0n);
    // The admin is out only the create_vault transaction's one signature (program v2: the
    // creator alone signs it); the vault's and receipt's rent came back with the refund.
    expect(adminBefore - (await lamportsOf(ctx, admin.wallet.address))).toBe(5_000n);
    await expectReconciled(ctx);
  });

  it('replays the same creation request with the same dare and refuses the signature for another', async () => {
    await endLiveMajorDare(ctx.app, admin.token);
    const until = deadline();
    const paid = await payStake(ctx.app, admin.token, admin.wallet, '0.05', {
      kind: 'major',
      deadline: until,
    });
    const body = {
      title: 'Weekly: handstand',
      description: 'One minute.',
      category: 'skill',
      difficulty: 'medium',
      prizeAmount: '0.05',
      deadline: until,
      maxParticipants: 10,
      transactionSignature: paid.signature,
      escrowWalletAddress: paid.escrow,
    };
    const first = await http.post('/api/admin/major-dare', body, admin.token);
    expect(first.statusCode, first.body).toBe(201);
    const again = await http.post('/api/admin/major-dare', body, admin.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect((await http.get('/api/major-dare')).json()).toMatchObject({
      id: first.json().id,
      totalPool: '0.05',
    });
    const community = await http.post(
      `/api/admin/major-dare/${first.json().id}/winner`,
      { submissionId: 999999, winnerType: 'community' },
      admin.token,
    );
    expect(community.statusCode).toBe(404);
    await expectReconciled(ctx);
  });

  it('keeps one Major Dare live at a time: another is refused with 409 naming the live one and its end, before the wallet pays', async () => {
    const live = await createMajor('0.05', { title: 'Weekly: the live one' });
    expect(live.statusCode, live.body).toBe(201);
    const end = new Date(live.json().deadline);
    const words = `The Major Dare "Weekly: the live one" is live until ${end.getUTCDate()} `;
    const escrow = (await http.post('/api/create-escrow-wallet', undefined, admin.token)).json().publicKey;
    const adminBefore = await lamportsOf(ctx, admin.wallet.address);
    const refused = await http.post(
      '/api/create-transaction',
      {
        fromWallet: admin.wallet.address,
        toWallet: escrow,
        amount: '0.05',
        kind: 'major',
        deadline: deadline(),
      },
      admin.token,
    );
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toContain(words);
    expect(refused.json().error).toMatch(/ UTC: a new one can be created once it ends$/);
    // Nothing was built, so nothing was paid.
    expect(await lamportsOf(ctx, admin.wallet.address)).toBe(adminBefore);
    // Home and /major-dare keep showing the live one; the admin's list holds every Major Dare.
    expect((await http.get('/api/major-dare')).json()).toMatchObject({
      id: live.json().id,
      status: 'active',
    });
    const listed = (await http.get('/api/admin/dares?major=true', admin.token)).json() as { id: number }[];
    expect(listed.map((d) => d.id)).toContain(live.json().id);
    expect(listed.length).toBeGreaterThan(1);

    // Once its deadline has passed it is no longer live: the next one may be created.
    ctx.clock.advance(end.getTime() - ctx.clock.now.getTime() + 1000);
    const next = await createMajor('0.05', { title: 'Weekly: the next one' });
    expect(next.statusCode, next.body).toBe(201);
    expect((await http.get('/api/major-dare')).json()).toMatchObject({ id: next.json().id });
    await expectReconciled(ctx);
  });

  it('takes a prize from 0.01 SOL up to MAJOR_PRIZE_MAX_SOL, above the 5 SOL stake cap', async () => {
    const count = () => ctx.database.db.$count(dares);
    const before = await count();
    const escrow = (await http.post('/api/create-escrow-wallet', undefined, admin.token)).json().publicKey;
    const build = (amount: string, token = admin.token, from = admin.wallet.address) =>
      http.post(
        '/api/create-transaction',
        { fromWallet: from, toWallet: escrow, amount, kind: 'major' },
        token,
      );
    const tooMuch = await build('7.000000001');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe('The prize can be at most 7 SOL');
    const tooLittle = await build('0.009');
    expect(tooLittle.statusCode).toBe(400);
    // A normal user's stake keeps the 5 SOL cap.
    const voter = voters[1]!;
    const own = (await http.post('/api/create-escrow-wallet', undefined, voter.token)).json().publicKey;
    const stake = await http.post(
      '/api/create-transaction',
      { fromWallet: voter.wallet.address, toWallet: own, amount: '6' },
      voter.token,
    );
    expect(stake.json().error).toBe('Please use stake amounts of 5 SOL or less. You tried to stake 6 SOL');
    const small = await http.post(
      '/api/admin/major-dare',
      {
        title: 'x',
        description: 'y',
        category: 'z',
        prizeAmount: '0.005',
        deadline: deadline(),
        transactionSignature: '5'.repeat(88),
        escrowWalletAddress: escrow,
      },
      admin.token,
    );
    expect(small.statusCode).toBe(400);
    expect(small.json().error).toBe('The minimum prize is 0.01 SOL');
    const large = await http.post(
      '/api/admin/major-dare',
      {
        title: 'x',
        description: 'y',
        category: 'z',
        prizeAmount: '8',
        deadline: deadline(),
        transactionSignature: '5'.repeat(88),
        escrowWalletAddress: escrow,
      },
      admin.token,
    );
    expect(large.statusCode).toBe(400);
    expect(large.json().error).toBe('The prize can be at most 7 SOL');
    expect(await count()).toBe(before);

    const created = await createMajor('6');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ isMajor: true, totalPool: '6' });
    await expectReconciled(ctx);
  });
});
