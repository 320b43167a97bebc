import { describe, expect, it } from 'vitest';
import type { MajorDare } from '#contract/major-dare';
import { MAJOR_VOTE_NEEDS_PAYMENT } from '#contract/voting';
import { setupApp } from './fixtures/app';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import { loginAsDemoAdmin, openAsDemoAdmin, registerWithWallet, toast } from './fixtures/users';

const app = setupApp();

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

describe('Major Dare page in the browser', () => {
  it('shows the live major dare with its server-computed 70/30 prizes, Submit Video and Share', async () => {
    const major = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    if (!major.isActive) throw new Error('the demo data has an active major dare');

    const { page } = await app.newPage();
    await page.goto(app.url('/major-dare'));
    await page.getByRole('heading', { name: major.title }).waitFor();
    await page.getByText('LIVE', { exact: true }).waitFor();
    await page.getByText('MAJOR DARE', { exact: true }).waitFor();
    await page.getByText(`${major.adminPrize} SOL`, { exact: true }).waitFor();
    await page.getByText(`${major.communityPrize} SOL`, { exact: true }).waitFor();
    expect(await page.getByText('70%', { exact: true }).count()).toBe(1);
    expect(await page.getByText('30%', { exact: true }).count()).toBe(1);

    const share = page.getByRole('link', { name: 'Share' });
    const href = new URL((await share.getAttribute('href'))!);
    expect(href.searchParams.get('url')).toBe(app.url('/major-dare'));
    expect(href.searchParams.get('text')).toContain(major.title);

    // The demo's major dare already has an approved proof (src/server/demo/seed.ts).
    await page.getByRole('article', { name: 'Submission by bob' }).waitFor();
    // A visitor's Submit Video asks to connect a wallet first.
    await page.getByRole('button', { name: 'Submit Video' }).click();
    await page.getByRole('dialog').waitFor();
  });

  it("disables the vote on the Major Dare's proofs for a user who never paid in, saying how to qualify", async () => {
    const major = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    if (!major.isActive) throw new Error('the demo data has an active major dare');
    const author = await newClient(app, 1);
    const proof = await submitOverHttp(app, author, major.id!, {
      videoUrl: 'https://videos.example/major-proof.mp4',
      description: 'Major proof',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });

    // A fresh wallet account: signed in, but no stake or contribution yet.
    const newcomer = await app.newPage({ wallet: true });
    await registerWithWallet(newcomer.page, app.baseUrl, 'e2e_newcomer');
    await newcomer.page.goto(app.url('/major-dare'));
    const refused = newcomer.page.getByRole('button', { name: 'Vote (0 votes)' });
    // The reason is text on the page (a phone shows no tooltip), and the button is not live.
    await newcomer.page.getByText(MAJOR_VOTE_NEEDS_PAYMENT, { exact: true }).waitFor();
    expect(await refused.isDisabled()).toBe(true);

    // The demo admin paid the major dare's prize: a backer, whose vote counts.
    const { page } = await openAsDemoAdmin(app, '/major-dare');
    const vote = page.getByRole('button', { name: 'Vote (0 votes)' });
    await expect.poll(() => vote.isEnabled()).toBe(true);
    await vote.click();
    await toast(page, 'Vote added!');
    // A cast vote reads Voted and is no longer live (issue 26).
    const voted = page.getByRole('button', { name: 'Voted (1 vote)' });
    await voted.waitFor();
    expect(await voted.isDisabled()).toBe(true);
    // Two browser sessions, a proof entered on chain and approved: more than the 30 s default.
  }, 90_000);

  it('shows a major dare whose winner is picked as closed, on Home too, with a Winner badge and no vote on it', async () => {
    const major = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    if (!major.isActive) throw new Error('the demo data has an active major dare');
    const admin = await loginAsDemoAdmin(app);
    // The author's wallet enters the major dare with its proof (only entrants can be paid).
    const author = await newClient(app, 2);
    const winning = await submitOverHttp(app, author, major.id!, {
      videoUrl: `https://videos.example/${author.username}-major.mp4`,
      description: `${author.username}'s hundred push-ups`,
    });
    await api('PUT', `/api/admin/submissions/${winning.id}`, admin.token, { status: 'approved' });
    // Bob's approved proof comes with the demo data.
    await api('POST', `/api/admin/major-dare/${major.id}/winner`, admin.token, {
      submissionId: winning.id,
      winnerType: 'admin',
    });
    const closed = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    expect(closed).toMatchObject({ isActive: true, status: 'completed' });

    // Home's card reads as the page does: no LIVE, no invitation, 'Challenge Closed'. The demo
    // admin paid the prize in, so a Major Dare vote is theirs to give.
    const { page } = await openAsDemoAdmin(app, '/');
    const card = page.getByRole('heading', { name: /^Major Dare of the Week/ }).locator('../..');
    await card.getByText(major.title, { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Challenge Closed' }).waitFor();
    expect(await card.getByRole('button', { name: 'Challenge Closed' }).isDisabled()).toBe(true);
    expect(await card.getByText('LIVE', { exact: true }).count()).toBe(0);
    expect(await card.getByRole('link', { name: /Take the challenge/ }).count()).toBe(0);

    await card.getByRole('link', { name: /See the submissions/ }).click();
    await page.waitForURL('**/major-dare');
    await page.getByRole('button', { name: 'Challenge Closed' }).waitFor();
    expect(await page.getByText('LIVE', { exact: true }).count()).toBe(0);
    // The winner wears its badge and takes no vote; the other approved proof still does.
    const winner = page.getByRole('article', { name: `Submission by ${author.username}` });
    await winner.getByText('Winner', { exact: true }).waitFor();
    expect(await winner.getByText('Approved', { exact: true }).count()).toBe(0);
    expect(await winner.getByRole('button', { name: /^Vote/ }).isDisabled()).toBe(true);
    const other = page.getByRole('article', { name: 'Submission by bob' });
    await other.getByText('Approved', { exact: true }).waitFor();
    expect(await other.getByRole('button', { name: /^Vote/ }).isEnabled()).toBe(true);
    // A proof entered on chain and approved, and a browser session: as the test above, more than 30 s.
  }, 90_000);
});
