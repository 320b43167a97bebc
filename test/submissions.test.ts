import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { dareSubmissions, dares, submissionVotes } from '#server/db/schema';
import { postSubmit, signedEntry } from './helpers/entries';
import { demoJudgeKey, nameWinner, walletOfKey } from './helpers/judging';
import { type Actor, api, createFundedDare, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  actors: { owner, alice, bob },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  // Authors enter on chain, and an entry is paid by the entrant's wallet: each holds a little SOL.
  actors: { owner: {}, alice: { sol: '1' }, bob: { sol: '1' } },
});
let dareId: number;

beforeAll(async () => {
  dareId = (await createFundedDare(ctx, owner, '0.1')).id;
});

/** Submit Video as the web sends it: with the author's entry, signed for this video (its hash is in it). */
const submit = async (user: Actor, id: number, body: { videoUrl: string; description: string }) =>
  postSubmit(ctx, user, id, {
    ...body,
    signedEntryTransaction: await signedEntry(ctx, user, id, body.videoUrl),
  });
const approve = (id: number) =>
  ctx.database.db.update(dareSubmissions).set({ status: 'approved' }).where(eq(dareSubmissions.id, id));

describe('submitting a video proof', () => {
  it('creates one pending submission per user per dare', async () => {
    const res = await submit(alice, dareId, {
      videoUrl: 'https://videos.example/alice.mp4',
      description: ' My run ',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      dareId,
      dare_id: dareId,
      userId: alice.id,
      status: 'pending',
      description: 'My run',
      votes: 0,
      video_url: 'https://videos.example/alice.mp4',
      dares: { title: 'Eat a lemon', is_major: false },
      users: { username: 'alice' },
    });
    const again = await postSubmit(ctx, alice, dareId, {
      videoUrl: 'https://videos.example/2.mp4',
      description: 'Again',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Already Submitted');
  });

  it('allows one submission under concurrent requests', async () => {
    const carol = await newActor(ctx, 'carol', { sol: '1' });
    const videoUrl = 'https://videos.example/carol.mp4';
    const signedEntryTransaction = await signedEntry(ctx, carol, dareId, videoUrl);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postSubmit(ctx, carol, dareId, {
          // The video the entry was signed for: the only one it can submit.
          videoUrl,
          description: `Race ${i}`,
          signedEntryTransaction,
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((res) => res.statusCode === 409)).toHaveLength(9);
    const rows = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.userId, carol.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses a missing part, a bad URL, a session-less request and a closed dare', async () => {
    const before = await ctx.database.db.select().from(dareSubmissions);
    const cases: [Actor | null, object, number, string][] = [
      [bob, { videoUrl: '', description: 'x' }, 400, SUBMISSION_MESSAGES.videoAndDescription],
      [
        bob,
        { videoUrl: 'https://v.example/a.mp4', description: '  ' },
        400,
        SUBMISSION_MESSAGES.videoAndDescription,
      ],
      [bob, { videoUrl: 'javascript:alert(1)', description: 'x' }, 400, 'Please use an https:// video link'],
      // An http link could never play on an https page.
      [
        bob,
        { videoUrl: 'http://v.example/a.mp4', description: 'x' },
        400,
        'Please use an https:// video link',
      ],
      // A page (YouTube, a blog post) never plays in a <video>: only direct file links.
      [
        bob,
        { videoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', description: 'x' },
        400,
        SUBMISSION_MESSAGES.videoFileLink,
      ],
      [
        bob,
        { videoUrl: 'https://youtu.be/dQw4w9WgXcQ', description: 'x' },
        400,
        SUBMISSION_MESSAGES.videoFileLink,
      ],
      [
        bob,
        { videoUrl: 'https://v.example/clip.mp4.html', description: 'x' },
        400,
        SUBMISSION_MESSAGES.videoFileLink,
      ],
      [
        bob,
        { videoUrl: '/uploads/videos/0123456789abcdef0123456789abcdef', description: 'x' },
        400,
        SUBMISSION_MESSAGES.videoUrl,
      ],
      [
        null,
        { videoUrl: 'https://v.example/a.mp4', description: 'x' },
        401,
        'Please connect your wallet or log in first',
      ],
    ];
    for (const [user, body, status, error] of cases) {
      const res = user
        ? await postSubmit(ctx, user, dareId, body)
        : await api(ctx).post(`/api/dares/${dareId}/submit`, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error).toBe(error);
    }
    const missing = await postSubmit(ctx, bob, 999_999, {
      videoUrl: 'https://v.example/a.mp4',
      description: 'x',
    });
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'Dare not found']);

    const closed = await createFundedDare(ctx, owner, '0.1', { title: 'Closing' });
    await ctx.database.db
      .update(dares)
      .set({ deadline: new Date(ctx.clock.now.getTime() - 1000) })
      .where(eq(dares.id, closed.id));
    const late = await postSubmit(ctx, bob, closed.id, {
      videoUrl: 'https://v.example/a.mp4',
      description: 'x',
    });
    expect([late.statusCode, late.json().error]).toEqual([409, 'Submissions Closed']);
    expect(await ctx.database.db.select().from(dareSubmissions)).toHaveLength(before.length);
  });

  it("shows a dare's approved submissions to everyone and a pending one only to its author", async () => {
    const [mine] = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.userId, alice.id));
    const asVisitor = (await api(ctx).get(`/api/submissions/${dareId}`)).json();
    expect(asVisitor).toEqual([]);
    const asAlice = (await api(ctx).get(`/api/submissions/${dareId}`, alice.token)).json();
    expect(asAlice.map((s: { id: number }) => s.id)).toEqual([mine!.id]);
    await approve(mine!.id);
    expect((await api(ctx).get(`/api/approved-submissions/${dareId}`)).json()).toMatchObject([
      { id: mine!.id },
    ]);
    await ctx.database.db
      .update(dareSubmissions)
      .set({ isFeatured: true })
      .where(eq(dareSubmissions.id, mine!.id));
    expect((await api(ctx).get('/api/featured-submissions')).json()).toMatchObject([
      { id: mine!.id, is_featured: true },
    ]);
  });
});

describe('voting', () => {
  it('takes 3 votes per user per dare, one per submission, never on your own', async () => {
    const dare = await createFundedDare(ctx, owner, '0.1', { title: 'Vote on me' });
    const authors = [
      alice,
      bob,
      await newActor(ctx, 'dan', { sol: '1' }),
      await newActor(ctx, 'eve', { sol: '1' }),
    ];
    const subs: number[] = [];
    for (const author of authors) {
      const res = await submit(author, dare.id, {
        videoUrl: `https://v.example/${author.username}.mp4`,
        description: 'Proof',
      });
      subs.push(res.json().id);
    }
    const pending = await api(ctx).post(`/api/submissions/${subs[0]}/vote`, undefined, owner.token);
    expect([pending.statusCode, pending.json().error]).toEqual([400, SUBMISSION_MESSAGES.notApproved]);
    for (const id of subs) await approve(id);

    const own = await api(ctx).post(`/api/submissions/${subs[0]}/vote`, undefined, alice.token);
    expect([own.statusCode, own.json().error]).toEqual([403, 'You cannot vote for your own submission']);
    const visitor = await api(ctx).post(`/api/submissions/${subs[0]}/vote`, undefined);
    expect(visitor.statusCode).toBe(401);

    const first = await api(ctx).post(`/api/submissions/${subs[0]}/vote`, undefined, owner.token);
    expect(first.json()).toEqual({ votes: 1, voteCount: 1 });
    const twice = await api(ctx).post(`/api/submissions/${subs[0]}/vote`, undefined, owner.token);
    expect([twice.statusCode, twice.json().error]).toEqual([409, SUBMISSION_MESSAGES.alreadyVoted]);
    expect((await api(ctx).post(`/api/submissions/${subs[1]}/vote`, undefined, owner.token)).json()).toEqual({
      votes: 1,
      voteCount: 2,
    });
    expect((await api(ctx).post(`/api/submissions/${subs[2]}/vote`, undefined, owner.token)).json()).toEqual({
      votes: 1,
      voteCount: 3,
    });
    const fourth = await api(ctx).post(`/api/submissions/${subs[3]}/vote`, undefined, owner.token);
    expect([fourth.statusCode, fourth.json().error]).toEqual([
      409,
      'You have used all 3 votes for this dare',
    ]);
    const votesUrl = `/api/user/${owner.id}/votes/dare/${dare.id}`;
    expect((await api(ctx).get(votesUrl, owner.token)).json()).toEqual({ voteCount: 3 });
  });

  it('tells only the signed-in user how many votes they used: 401 without a session, 403 about someone else', async () => {
    const dare = await createFundedDare(ctx, owner, '0.1');
    const votesUrl = `/api/user/${owner.id}/votes/dare/${dare.id}`;
    expect((await api(ctx).get(votesUrl, owner.token)).json()).toEqual({ voteCount: 0 });
    const anonymous = await api(ctx).get(votesUrl);
    expect([anonymous.statusCode, typeof anonymous.json().error]).toEqual([401, 'string']);
    const other = await api(ctx).get(votesUrl, alice.token);
    expect([other.statusCode, other.json().error]).toEqual([403, SUBMISSION_MESSAGES.votesNotYours]);
    expect((await api(ctx).get(`/api/user/${alice.id}/votes/dare/${dare.id}`, alice.token)).json()).toEqual({
      voteCount: 0,
    });
  });

  it('stops once votes can change nothing: a cancelled dare, a dare with its winner', async () => {
    // The demo admin's wallet: the judge of every new vault in tests (program v2).
    const admin = await newActor(ctx, 'judge', {
      sol: '1',
      admin: true,
      wallet: walletOfKey(await demoJudgeKey(ctx)),
    });
    const voter = await newActor(ctx, 'latevoter', { sol: '1' });
    const proofOn = async (title: string) => {
      const dare = await createFundedDare(ctx, owner, '0.1', { title });
      const res = await submit(alice, dare.id, {
        videoUrl: 'https://v.example/a.webm',
        description: 'Proof',
      });
      expect(res.statusCode, res.body).toBe(201);
      await approve(res.json().id);
      return { dare, submissionId: res.json().id as number };
    };
    const vote = (id: number) => api(ctx).post(`/api/submissions/${id}/vote`, undefined, voter.token);

    const cancelled = await proofOn('Cancelled later');
    await ctx.database.db.update(dares).set({ status: 'cancelled' }).where(eq(dares.id, cancelled.dare.id));
    const onCancelled = await vote(cancelled.submissionId);
    expect([onCancelled.statusCode, onCancelled.json().error]).toEqual([
      409,
      'Voting is closed: this dare was cancelled',
    ]);

    const won = await proofOn('Won already');
    const rival = await submit(bob, won.dare.id, {
      videoUrl: 'https://v.example/b.ogv',
      description: 'Rival',
    });
    await approve(rival.json().id);
    expect((await vote(rival.json().id)).statusCode).toBe(200);
    // The judge's wallet names the winner: a proposal in its window closes voting at once.
    const proposal = await nameWinner(ctx, admin, won.submissionId, won.dare.id);
    const afterWinner = await vote(won.submissionId);
    expect([afterWinner.statusCode, afterWinner.json().error]).toEqual([
      409,
      'Voting is closed: this dare already has its winner',
    ]);
    // The dare's page reads the same reason, and the winner, from the outcome; every new vault (v2)
    // says who judges it.
    const judging = {
      judges: ctx.judging.judges,
      threshold: 1,
      guardian: ctx.judging.guardian,
      payoutWindowSeconds: Number(ctx.judging.payoutWindowSeconds),
    };
    expect((await api(ctx).get(`/api/dares/${won.dare.id}/outcome`)).json()).toEqual({
      votingClosed: 'Voting is closed: this dare already has its winner',
      refunds: [],
      proposal: { ...proposal, vetoed: false, inWindow: expect.any(Boolean) },
      judging,
      winners: [
        {
          submissionId: won.submissionId,
          username: 'alice',
          claimType: 'dare_winner',
          amount: '0.1',
          status: 'pending',
          transactionSignature: null,
        },
      ],
    });
    expect((await api(ctx).get(`/api/dares/${rival.json().dareId}/outcome`)).statusCode).toBe(200);
    expect((await api(ctx).get(`/api/dares/${cancelled.dare.id}/outcome`)).json()).toEqual({
      votingClosed: 'Voting is closed: this dare was cancelled',
      winners: [],
      refunds: [],
      proposal: null,
      judging,
    });
    expect((await api(ctx).get('/api/dares/999999/outcome')).statusCode).toBe(404);
    // Nothing was counted by the refused votes.
    const rows = await ctx.database.db
      .select()
      .from(submissionVotes)
      .where(eq(submissionVotes.userId, voter.id));
    expect(rows).toHaveLength(1);
  });

  it('stays exact under 100 parallel vote requests from one user', async () => {
    const dare = await createFundedDare(ctx, owner, '0.1', { title: 'Stampede' });
    const voter = await newActor(ctx, 'stampede', { sol: '1' });
    const subs: number[] = [];
    for (const author of [alice, bob, owner]) {
      const res = await submit(author, dare.id, {
        videoUrl: `https://v.example/s${author.id}.mp4`,
        description: 'Go',
      });
      subs.push(res.json().id);
      await approve(res.json().id);
    }
    const extra = await newActor(ctx, 'extra', { sol: '1' });
    const res = await submit(extra, dare.id, { videoUrl: 'https://v.example/x.mp4', description: 'Go' });
    subs.push(res.json().id);
    await approve(res.json().id);

    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api(ctx).post(`/api/submissions/${subs[i % 4]}/vote`, undefined, voter.token),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    const votes = await ctx.database.db
      .select()
      .from(submissionVotes)
      .where(eq(submissionVotes.userId, voter.id));
    expect(votes).toHaveLength(3);
    const rows = await ctx.database.db
      .select()
      .from(dareSubmissions)
      .where(eq(dareSubmissions.dareId, dare.id));
    // Each submission's counter equals its vote rows.
    for (const row of rows) expect(row.votes).toBe(votes.filter((v) => v.submissionId === row.id).length);
  });
});
