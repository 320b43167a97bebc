import { describe, expect, it } from 'vitest';
import type { MajorDare } from '../src/contract/major-dare';
import { MAJOR_VOTE_NEEDS_PAYMENT } from '../src/contract/voting';
import { setupApp } from './fixtures/app';
import { DEMO_ADMIN, DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { request } from './fixtures/http-client';
import { openAsDemoAdmin, registerWithWallet, toast } from './fixtures/users';

const app = setupApp();

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

    // A visitor's Submit Video asks to connect a wallet first.
    await page.getByRole('button', { name: 'Submit Video' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByText('No approved submissions yet').waitFor();
  });

  it("disables the vote on the Major Dare's proofs for a user who never paid in, saying how to qualify", async () => {
    const major = (await (await fetch(app.url('/api/major-dare'))).json()) as MajorDare;
    if (!major.isActive) throw new Error('the demo data has an active major dare');
    const login = (username: string, password: string) =>
      request<{ token: string }>(app, 'POST', '/api/auth/login', undefined, { username, password });
    const alice = await login('alice', DEMO_USER_PASSWORD);
    const proof = await request<{ id: number }>(app, 'POST', `/api/dares/${major.id}/submit`, alice.token, {
      videoUrl: 'https://videos.example/major-proof.mp4',
      description: 'Major proof',
    });
    const admin = await login(DEMO_ADMIN.username, DEMO_ADMIN.password);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });

    // A fresh wallet account: signed in, but no stake or contribution yet.
    const newcomer = await app.newPage({ wallet: true });
    await registerWithWallet(newcomer.page, app.baseUrl, 'e2e_newcomer');
    await newcomer.page.goto(app.url('/major-dare'));
    const refused = newcomer.page.getByRole('button', { name: 'Vote (0 votes)' });
    await expect.poll(() => refused.getAttribute('title')).toBe(MAJOR_VOTE_NEEDS_PAYMENT);
    expect(await refused.isDisabled()).toBe(true);

    // The demo admin paid the major dare's prize: a backer, whose vote counts.
    const { page } = await openAsDemoAdmin(app, '/major-dare');
    const vote = page.getByRole('button', { name: 'Vote (0 votes)' });
    await expect.poll(() => vote.isEnabled()).toBe(true);
    await vote.click();
    await toast(page, 'Vote added!');
    await page.getByRole('button', { name: 'Vote (1 vote)' }).waitFor();
  });
});
