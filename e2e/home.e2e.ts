import { describe, expect, it } from 'vitest';
import { lamportsToSol, solToLamports } from '#contract/money';
import { setupApp } from './fixtures/app';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import { loginAsDemoAdmin } from './fixtures/users';

const app = setupApp();

interface DareItem {
  id: number;
  title: string;
  participantCount: number;
  isMajor: boolean;
  status: string;
  totalPool: string;
}

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

describe('Home and Community Dares in the browser', () => {
  it('shows the stats, the dares with filters, count and search, and cards that open the dare', async () => {
    const all = await api<DareItem[]>('GET', '/api/dares?filter=all');
    const active = await api<DareItem[]>('GET', '/api/dares?filter=active');
    const stats = await api<{ totalDares: number; activeDares: number }>('GET', '/api/stats');
    expect(all.length).toBeGreaterThan(active.length);

    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    const strip = page.getByRole('region', { name: 'Platform stats' });
    await expect
      .poll(() => strip.getByText('Total Dares').locator('../..').textContent())
      .toContain(String(stats.totalDares));
    // The seeded major dare answers GET /api/major-dare: the card shows it live.
    const major = await api<{ isActive: boolean; title?: string }>('GET', '/api/major-dare');
    const majorCard = page.getByRole('heading', { name: /^Major Dare of the Week/ }).locator('../..');
    if (major.isActive) {
      await majorCard.getByText('LIVE', { exact: true }).waitFor();
      await majorCard.getByText(major.title!, { exact: true }).waitFor();
    } else await majorCard.getByText('No Major Dare Active').waitFor();

    const count = page.getByText(/dares? available$/);
    // The list opens on the active dares (issue 18: a cancelled one first looked dead).
    await expect.poll(() => count.textContent()).toBe(`${active.length} dares available`);
    const cards = page.getByRole('list', { name: 'Dares' }).getByRole('link');
    expect(await cards.count()).toBe(active.length);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect.poll(() => count.textContent()).toBe(`${all.length} dares available`);
    expect(await cards.count()).toBe(all.length);

    // Search narrows the list to the dares whose title or description match.
    const target = all[all.length - 1]!;
    await page.getByRole('searchbox', { name: 'Search dares' }).fill(target.title);
    await expect.poll(() => cards.count()).toBeLessThan(all.length);
    const card = cards.filter({ hasText: target.title }).first();
    await card.waitFor();
    expect(await card.getByTestId('participant-count').textContent()).toBe(String(target.participantCount));
    await card.click();
    await page.waitForURL(`**/dare/${target.id}`);
    await page.getByRole('heading', { level: 1, name: target.title }).waitFor();
    const share = page.getByRole('link', { name: 'Share' });
    const shareUrl = new URL((await share.getAttribute('href'))!);
    expect(shareUrl.origin + shareUrl.pathname).toBe('https://twitter.com/intent/tweet');
    expect(shareUrl.searchParams.get('url')).toBe(app.url(`/dare/${target.id}`));
    expect(shareUrl.searchParams.get('text')).toContain(target.title);

    // Community Dares: active by default, no major dares.
    await page.goto(app.url('/community-dares'));
    expect(await page.getByRole('button', { name: 'Active', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await expect
      .poll(() => page.getByRole('list', { name: 'Dares' }).getByRole('link').count())
      .toBe(active.filter((dare) => !dare.isMajor).length);
  });

  it('lists featured videos with vote buttons that a visitor cannot use', async () => {
    const [dare] = await api<DareItem[]>('GET', '/api/dares?filter=active');
    // A wallet the test holds the keys of: it signs its entry of the dare.
    const author = await newClient(app, 2);
    const submission = await submitOverHttp(app, author, dare!.id, {
      videoUrl: 'https://videos.example/featured.mp4',
      description: 'Featured proof',
    });
    const admin = await loginAsDemoAdmin(app);
    await api('PUT', `/api/admin/submissions/${submission.id}`, admin.token, {
      status: 'approved',
      is_featured: true,
    });

    const { page } = await app.newPage();
    await page.goto(app.url('/'));
    await page.getByRole('tab', { name: 'Featured' }).click();
    const featured = page.getByRole('article', { name: `Submission by ${author.username}` });
    await featured.waitFor();
    await featured.getByText('Featured proof').waitFor();
    await featured.getByRole('link', { name: dare!.title }).waitFor();
    expect(await featured.getByRole('button', { name: /^Vote/ }).isDisabled()).toBe(true);
    expect(await featured.getByRole('button', { name: 'Watch Video' }).isEnabled()).toBe(true);
  });

  it("counts in Community Dares' tiles only the dares its list shows, not the hidden major dare", async () => {
    const major = await api<{ isActive: boolean; id?: number }>('GET', '/api/major-dare');
    if (!major.isActive) throw new Error('the demo data has a major dare');
    const [community] = await api<DareItem[]>('GET', '/api/dares?filter=active');
    // A newcomer takes part only in the major dare, another only in a community dare.
    for (const [client, dareId] of [
      [await newClient(app, 1), major.id!],
      [await newClient(app, 3), community!.id],
    ] as const) {
      await submitOverHttp(app, client, dareId, {
        videoUrl: `https://videos.example/${client.username}-tiles.mp4`,
        description: 'Counted or not',
      });
    }

    // What the list shows: every community dare; the pools still held (a cancelled one's went back).
    const listed = await api<DareItem[]>('GET', '/api/dares?filter=all&limit=100');
    expect(listed.every((dare) => !dare.isMajor)).toBe(true);
    const heldPools = listed
      .filter((dare) => dare.status !== 'cancelled')
      .reduce((sum, dare) => sum + solToLamports(dare.totalPool), 0n);
    const admin = await loginAsDemoAdmin(app);
    const submissions = await api<{ userId: number; dares: { is_major: boolean } | null }[]>(
      'GET',
      '/api/admin/submissions',
      admin.token,
    );
    const communityPeople = new Set(
      submissions.filter((s) => s.dares && !s.dares.is_major).map((s) => s.userId),
    ).size;
    const everyone = new Set(submissions.map((s) => s.userId)).size;
    const platform = await api<{ totalRewards: string; totalParticipants: number }>('GET', '/api/stats');
    // Home's numbers include the major dare, so the two really differ here.
    expect(solToLamports(platform.totalRewards)).toBeGreaterThan(heldPools);
    expect(everyone).toBeGreaterThan(communityPeople);

    const { page } = await app.newPage();
    await page.goto(app.url('/community-dares'));
    const tiles = page.getByRole('region', { name: 'Community stats' });
    const tile = (label: string) => tiles.getByText(label, { exact: true }).locator('../..').textContent();
    await expect.poll(() => tile('Total SOL Pool')).toBe(`Total SOL Pool${lamportsToSol(heldPools)} SOL`);
    await expect.poll(() => tile('Total Participants')).toBe(`Total Participants${communityPeople}`);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Dares' }).getByRole('link').count())
      .toBe(listed.length);
  });
});
