import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '#contract/time';
import { createDare, createUser } from '#server/db/factories';
import { dareSubmissions } from '#server/db/schema';
import { setupApiSuite } from './helpers/suite';
import { createTestWallet } from './helpers/wallet';

const { ctx } = setupApiSuite();
let ids: number[];

beforeAll(async () => {
  const { db } = ctx.database;
  const creator = await createUser(db, { username: 'lister' });
  const other = await createUser(db, { username: 'runner' });
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS);
  ids = [];
  // Read-only listing data: rows written directly (no money moves in these tests).
  for (let i = 0; i < 7; i++) {
    const dare = await createDare(db, {
      creatorId: creator.id,
      title: i === 3 ? 'Sing 100% off-key' : `Dare number ${i}`,
      description: i === 5 ? 'Climb the old water tower' : 'Something brave',
      category: i % 2 === 0 ? 'physical' : 'creative',
      difficulty: i < 4 ? 'easy' : 'hard',
      deadline: i === 6 ? inDays(-1) : inDays(3),
      status: i === 4 ? 'completed' : i === 2 ? 'cancelled' : 'active',
    });
    ids.push(dare.id);
  }
  await createDare(db, { creatorId: creator.id, title: 'The major one', isMajor: true, deadline: inDays(3) });
  await db.insert(dareSubmissions).values([
    { dareId: ids[0]!, userId: creator.id, videoUrl: 'https://v.example/a.mp4', status: 'approved' },
    { dareId: ids[0]!, userId: other.id, videoUrl: 'https://v.example/b.mp4' },
  ]);
});

const list = async (query = '') => {
  const res = await ctx.app.inject({ url: `/api/dares${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return {
    dares: res.json() as { id: number; status: string; title: string }[],
    next: res.headers['x-next-cursor'],
  };
};

describe('GET /api/dares', () => {
  it('lists community dares newest first, without major dares, with real counters', async () => {
    const { dares, next } = await list();
    expect(dares.map((d) => d.id)).toEqual([...ids].reverse());
    expect(next).toBeUndefined();
    const first = dares.find((d) => d.id === ids[0]) as unknown as Record<string, unknown>;
    expect(first).toMatchObject({ participantCount: 2, submissionCount: 2, submission_count: 2 });
  });

  it('filters active (open now) and completed (including past their deadline)', async () => {
    const active = await list('?filter=active');
    expect(active.dares.map((d) => d.id).sort()).toEqual([ids[0], ids[1], ids[3], ids[5]].sort());
    const completed = await list('?filter=completed');
    expect(completed.dares.map((d) => d.id).sort()).toEqual([ids[4], ids[6]].sort());
    // Past its deadline, an active row reads as completed everywhere.
    expect(completed.dares.find((d) => d.id === ids[6])!.status).toBe('completed');
    expect((await ctx.app.inject({ url: `/api/dares/${ids[6]}` })).json().status).toBe('completed');
  });

  it('pages with a cursor and never repeats or skips a dare', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.dares.length).toBeLessThanOrEqual(3);
      seen.push(...page.dares.map((d) => d.id));
      cursor = page.next as string | undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    const bad = await ctx.app.inject({ url: '/api/dares?limit=1000' });
    expect(bad.statusCode).toBe(400);
  });

  it('searches title and description, literally, and filters by category and difficulty', async () => {
    expect((await list('?q=water%20TOWER')).dares.map((d) => d.id)).toEqual([ids[5]]);
    expect((await list('?q=100%25')).dares.map((d) => d.id)).toEqual([ids[3]]);
    expect((await list('?q=%25')).dares.map((d) => d.id)).toEqual([ids[3]]);
    expect((await list('?category=creative&difficulty=easy')).dares.map((d) => d.id).sort()).toEqual(
      [ids[1], ids[3]].sort(),
    );
  });
});

describe('GET /api/stats', () => {
  it('computes every number from the database', async () => {
    const res = await ctx.app.inject({ url: '/api/stats' });
    expect(res.json()).toEqual({
      totalDares: 7,
      activeDares: 4,
      // Pools of every dare not cancelled, the major one included: 7 x 0.1 SOL.
      totalRewards: '0.7',
      daredevils: 2,
      totalParticipants: 2,
    });
  });
});

describe('cached reads', () => {
  it('answers an unchanged poll with 304 and forgets the copy after any write', async () => {
    const first = await ctx.app.inject({ url: '/api/stats' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const unchanged = await ctx.app.inject({ url: '/api/stats', headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    // A row written behind the API's back is not seen until something invalidates the copy...
    const creator = await createUser(ctx.database.db, { username: 'late' });
    await createDare(ctx.database.db, {
      creatorId: creator.id,
      title: 'Late',
      deadline: new Date(Date.now() + DAY_MS),
    });
    expect((await ctx.app.inject({ url: '/api/stats' })).json().totalDares).toBe(7);
    // ...and any successful write through the API does.
    const wallet = await createTestWallet();
    const write = await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/airdrop',
      payload: { walletAddress: wallet.address, amount: '1' },
    });
    expect(write.statusCode).toBe(200);
    const fresh = await ctx.app.inject({ url: '/api/stats', headers: { 'if-none-match': etag } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ totalDares: 8, daredevils: 3 });
    expect(fresh.headers.etag).not.toBe(etag);
  });

  it('keeps one copy per distinct answer, however the URL spells the query', async () => {
    // A write through the API empties the cache, so this test starts from nothing cached.
    const wallet = await createTestWallet();
    await ctx.app.inject({
      method: 'POST',
      url: '/api/dev/airdrop',
      payload: { walletAddress: wallet.address, amount: '1' },
    });
    const first = await ctx.app.inject({ url: '/api/dares?filter=all' });
    // Behind the API's back: only a URL that computes its own answer shows this dare.
    const creator = await createUser(ctx.database.db, { username: 'unseen' });
    await createDare(ctx.database.db, {
      creatorId: creator.id,
      title: 'Unseen',
      deadline: new Date(Date.now() + DAY_MS),
    });
    for (const spelling of [
      '',
      '?limit=50',
      '?filter=all&limit=50',
      '?limit=50&filter=all&q=&unknown=1',
      '?q=%20',
    ]) {
      const same = await ctx.app.inject({ url: `/api/dares${spelling}` });
      expect(same.headers.etag, spelling).toBe(first.headers.etag);
      expect(same.body, spelling).toBe(first.body);
    }
    const other = await ctx.app.inject({ url: '/api/dares?filter=all&limit=49' });
    expect(other.json()[0].title).toBe('Unseen');
  });

  it('keeps the next-page cursor with the cached page', async () => {
    const first = await ctx.app.inject({ url: '/api/dares?limit=2' });
    const second = await ctx.app.inject({ url: '/api/dares?limit=2' });
    expect(first.headers['x-next-cursor']).toMatch(/^\d+$/);
    expect(second.headers['x-next-cursor']).toBe(first.headers['x-next-cursor']);
    expect(second.body).toBe(first.body);
  });
});

describe('a private dare (issue 37, item 13)', () => {
  it('is left out of the list and search, and reached by its link', async () => {
    const { db } = ctx.database;
    const owner = await createUser(db, { username: 'hider' });
    const hidden = await createDare(db, {
      creatorId: owner.id,
      title: 'Secret rooftop picnic',
      isPublic: false,
      deadline: new Date(Date.now() + 3 * DAY_MS),
    });
    const visible = await createDare(db, {
      creatorId: owner.id,
      title: 'Open rooftop picnic',
      deadline: new Date(Date.now() + 3 * DAY_MS),
    });
    const all = (await list('?limit=100')).dares.map((d) => d.id);
    expect(all).toContain(visible.id);
    expect(all).not.toContain(hidden.id);
    expect((await list('?q=rooftop%20picnic')).dares.map((d) => d.id)).toEqual([visible.id]);
    const own = await ctx.app.inject({ url: `/api/dares/${hidden.id}` });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: hidden.id, isPublic: false });
  });
});
