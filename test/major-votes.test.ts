import { address } from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { DAY_MS } from '#contract/time';
import { dareSubmissions, dares, poolContributions } from '#server/db/schema';
import { backByBlink } from './helpers/blinks';
import { dareBody, lapsedPaymentsJob, payStake } from './helpers/money';
import {
  type Actor,
  api,
  contribute,
  createFundedDare,
  lamportsOf,
  newActor,
  submitVideo,
} from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet, registerWithWallet } from './helpers/wallet';

const {
  ctx,
  actors: { creator, participant },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: { creator: {}, participant: { sol: '0' } },
});
let major: { id: number; escrowWallet: string };
let community: { id: number; escrowWallet: string };
let majorEntry: { id: number };
let communityEntry: { id: number };

beforeAll(async () => {
  major = await createFundedDare(ctx, creator, '0.1');
  await ctx.database.db.update(dares).set({ isMajor: true }).where(eq(dares.id, major.id));
  community = await createFundedDare(ctx, creator, '0.1');
  majorEntry = await submitVideo(ctx, participant, major.id);
  communityEntry = await submitVideo(ctx, participant, community.id);
  await ctx.database.db.update(dareSubmissions).set({ status: 'approved' });
});

const vote = (voter: Actor, submission: { id: number }) =>
  api(ctx).post(`/api/submissions/${submission.id}/vote`, undefined, voter.token);
const rights = (voter: Actor) => api(ctx).get('/api/voting-rights', voter.token);

describe("votes on the Major Dare's submissions", () => {
  it('are refused with how to qualify to an account that never paid into DarePool', async () => {
    const fresh = await newActor(ctx, 'fresh', { sol: '1' });
    const refused = await vote(fresh, majorEntry);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: SUBMISSION_MESSAGES.majorVoteNeedsPayment,
      code: 'FORBIDDEN',
    });
    expect((await rights(fresh)).json()).toEqual({ majorDare: false });
    const [row] = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.id, majorEntry.id));
    expect(row!.votes).toBe(0);
    // A community dare keeps the rule of docs/product.md#voting-rules: any signed-in user votes.
    expect((await vote(fresh, communityEntry)).statusCode).toBe(200);
  });

  it("give no vote for a stake or contribution anywhere else: a fresh account's 0.01 SOL stake in its own dare", async () => {
    const cheap = await newActor(ctx, 'cheapvoter', { sol: '1' });
    await createFundedDare(ctx, cheap, '0.01');
    await contribute(ctx, cheap, community, '0.01');
    expect((await rights(cheap)).json()).toEqual({ majorDare: false });
    const refused = await vote(cheap, majorEntry);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      SUBMISSION_MESSAGES.majorVoteNeedsPayment,
    ]);
  });

  it("are accepted from a contribution to the Major Dare's own pool, and no longer once it is refunded", async () => {
    const backer = await newActor(ctx, 'backer', { sol: '1' });
    await contribute(ctx, backer, major, '0.01');
    expect((await rights(backer)).json()).toEqual({ majorDare: true });
    const accepted = await vote(backer, majorEntry);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ votes: 1, voteCount: 1 });

    const refundedBacker = await newActor(ctx, 'refundedbacker', { sol: '1' });
    await contribute(ctx, refundedBacker, major, '0.01');
    expect((await rights(refundedBacker)).json()).toEqual({ majorDare: true });
    // What a refund records on the backer's pool row (payouts/repo.ts): the SOL went back to them.
    await ctx.database.db
      .update(poolContributions)
      .set({ refundedAt: ctx.clock.now, refundSignature: 'refunded-in-test' })
      .where(eq(poolContributions.userId, refundedBacker.id));
    expect((await rights(refundedBacker)).json()).toEqual({ majorDare: false });
    const refused = await vote(refundedBacker, majorEntry);
    expect([refused.statusCode, refused.json().error]).toEqual([
      403,
      SUBMISSION_MESSAGES.majorVoteNeedsPayment,
    ]);
  });

  it('count a blink deposit its wallet made before registering (decision 066), and its Profile shows it', async () => {
    const wallet = await createTestWallet();
    await ctx.chain.airdrop(address(wallet.address), 1_000_000_000n);
    const signature = await backByBlink(ctx, major.id, wallet, '0.05');
    const { token } = await registerWithWallet(ctx.app, wallet, 'late_blinker');
    const voter = { token } as Actor;
    expect((await rights(voter)).json()).toEqual({ majorDare: true });
    expect((await vote(voter, majorEntry)).statusCode).toBe(200);

    const profile = (await api(ctx).get('/api/profile', token)).json();
    expect(profile.stats).toMatchObject({ contributions: 1, totalContributed: '0.05' });
    expect(profile.recentActivity).toContainEqual(
      expect.objectContaining({
        type: 'contribution',
        dareId: major.id,
        amount: '0.05',
        status: 'contribution',
        transactionSignature: signature,
      }),
    );
  });

  it('count a blink deposit from a wallet that already has an account', async () => {
    const wallet = await createTestWallet();
    await ctx.chain.airdrop(address(wallet.address), 1_000_000_000n);
    const { token } = await registerWithWallet(ctx.app, wallet, 'early_blinker');
    const voter = { token } as Actor;
    expect((await rights(voter)).json()).toEqual({ majorDare: false });
    await backByBlink(ctx, major.id, wallet, '0.05');
    expect((await rights(voter)).json()).toEqual({ majorDare: true });
    const profile = (await api(ctx).get('/api/profile', token)).json();
    expect(profile.stats).toMatchObject({ contributions: 1, totalContributed: '0.05' });
  });

  it("count the Major Dare's own stake too", async () => {
    expect((await rights(creator)).json()).toEqual({ majorDare: true });
    expect((await vote(creator, majorEntry)).statusCode).toBe(200);
  });

  it('are refused to an account whose only payment was refused and refunded', async () => {
    const refusedPayer = await newActor(ctx, 'refusedpayer', { sol: '1' });
    const deadline = new Date(ctx.clock.now.getTime() + 3 * DAY_MS).toISOString();
    const paid = await payStake(ctx.app, refusedPayer.token, refusedPayer.wallet, '0.05', { deadline });
    // The vault was built for another deadline than the dare's: it can never fund it.
    const other = new Date(ctx.clock.now.getTime() + 4 * DAY_MS).toISOString();
    const refused = await api(ctx).post(
      '/api/dares',
      dareBody(refusedPayer.wallet, paid, '0.05', { deadline: other }),
      refusedPayer.token,
    );
    expect(refused.json().error).toBe('The deadline does not match the one the payment was prepared with');
    // Booked on the ledger, then refunded with its vault: never credited to a dare.
    expect((await rights(refusedPayer)).json()).toEqual({ majorDare: false });
    expect((await vote(refusedPayer, majorEntry)).statusCode).toBe(403);
    expect((await lapsedPaymentsJob(ctx).run()).failureReasons).toEqual([]);
    expect(await lamportsOf(ctx, paid.escrow)).toBe(0n);
    expect((await rights(refusedPayer)).json()).toEqual({ majorDare: false });
    const afterRefund = await vote(refusedPayer, majorEntry);
    expect(afterRefund.statusCode).toBe(403);
    expect(afterRefund.json().error).toBe(SUBMISSION_MESSAGES.majorVoteNeedsPayment);
  });

  it('answer a visitor 401 on /api/voting-rights', async () => {
    expect((await api(ctx).get('/api/voting-rights')).statusCode).toBe(401);
  });
});
