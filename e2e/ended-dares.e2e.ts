import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import {
  loginAsDemoAdmin,
  loginAsDemoUser,
  openAsDemoAdmin,
  openSignedIn,
  registerWithWallet,
} from './fixtures/users';

const app = setupApp();

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

/** A demo dare's id by its title (src/server/demo/seed.ts). */
async function demoDare(title: string): Promise<number> {
  const all = await api<{ id: number; title: string }[]>('GET', '/api/dares?filter=all&limit=50');
  const dare = all.find((d) => d.title === title);
  if (!dare) throw new Error(`no demo dare '${title}'`);
  return dare.id;
}

describe('dares that ended', () => {
  it('names the paid winner with the payout transaction, reads Completed, and takes no more votes', async () => {
    const id = await demoDare('Sunrise summit hike');
    const { page } = await openSignedIn(
      app,
      { username: 'alice', password: DEMO_USER_PASSWORD },
      `/dare/${id}`,
    );
    const banner = page.getByRole('status', { name: 'Winner' });
    await banner.getByText('carol').waitFor();
    expect(await banner.textContent()).toContain('won this dare');
    const payout = banner.getByRole('link', { name: 'View payout transaction' });
    expect(await payout.getAttribute('href')).toMatch(/^\/tx\/[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    // A dare with a winner reads Completed; 'Ended' is for one nobody won (issue 26).
    await page.getByText('Completed', { exact: true }).first().waitFor();
    expect(await page.getByText('Days Left').count()).toBe(0);
    const card = page.getByRole('article', { name: 'Submission by carol' });
    await card.getByText('Winner', { exact: true }).waitFor();
    await page.getByText('Voting is closed: this dare already has its winner').waitFor();

    // The server says the same to a vote sent anyway.
    const { token } = await loginAsDemoUser(app, 'bob');
    const [proof] = await api<{ id: number }[]>('GET', `/api/approved-submissions/${id}`);
    const refused = await fetch(app.url(`/api/submissions/${proof!.id}/vote`), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect([refused.status, (await refused.json()).error]).toEqual([
      409,
      'Voting is closed: this dare already has its winner',
    ]);
  });

  it('shows a deactivated dare as Refunded, with what went back, on its card and its page', async () => {
    // The demo deactivates it through the admin's Deactivate, which refunds its creator at once.
    const id = await demoDare('Juggle five balls for a minute');
    const { page } = await app.newPage();
    await page.goto(app.url(`/dare/${id}`));
    await page.getByText('Refunded', { exact: true }).first().waitFor();
    await page.getByText('Refunded 0.2 SOL to 1 backer').first().waitFor();
    expect(await page.getByText('Days Left').count()).toBe(0);

    await page.goto(app.url('/community-dares'));
    await page.getByRole('button', { name: 'All', exact: true }).click();
    const card = page.getByRole('link', { name: /Juggle five balls for a minute/ });
    await card.locator('[data-phase="refunded"]').getByText('Refunded', { exact: true }).waitFor();
    await card.getByText('Refunded 0.2 SOL to 1 backer').waitFor();
  });
});

describe('proofs waiting for review and links that cannot play', () => {
  it('shows the author their own pending proof, and nobody else', async () => {
    const id = await demoDare('Paint a mural in one afternoon');
    // A password user whose wallet's keys the test holds: it enters the dare with the proof.
    const author = await newClient(app, 2);
    await submitOverHttp(app, author, id, {
      videoUrl: 'https://videos.example/mural.mp4',
      description: 'My mural, time-lapsed',
    });
    const { page } = await openSignedIn(
      app,
      { username: author.username, password: 'bench-password-1' },
      `/dare/${id}`,
    );
    const mine = page.getByRole('article', { name: `Submission by ${author.username}` });
    await mine.getByText('Pending review').waitFor();
    await page.getByText("Your proof arrived and waits for an admin's review.").waitFor();

    const visitor = await app.newPage();
    await visitor.page.goto(app.url(`/dare/${id}`));
    await visitor.page.getByText('No approved submissions yet').waitFor();
    expect(await visitor.page.getByText('Pending review').count()).toBe(0);
  });

  it('says so when a video cannot play and offers the original link', { timeout: 60_000 }, async () => {
    const id = await demoDare('Compliment 20 strangers');
    const author = await newClient(app, 3);
    // Nothing listens on port 9: the link fails at once, as a dead link does (the tests run offline).
    const link = 'https://127.0.0.1:9/gone.mp4';
    const proof = await submitOverHttp(app, author, id, { videoUrl: link, description: 'Twenty smiles' });
    const admin = await loginAsDemoAdmin(app);
    await api('PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });

    const { page } = await app.newPage();
    await page.goto(app.url(`/dare/${id}`));
    await page
      .getByRole('article', { name: `Submission by ${author.username}` })
      .getByRole('button', { name: 'Watch Video' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This video cannot be played here.').waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('link', { name: 'Open original link' }).getAttribute('href')).toBe(link);
  });

  it("the admin's preview says so too and offers the original link", { timeout: 60_000 }, async () => {
    const id = await demoDare('Compliment 20 strangers');
    const player = await newClient(app, 1);
    // Approved, so the admin's preview plays it through the proxy, which sends it to the dead link.
    const link = 'https://127.0.0.1:9/admin-preview.mp4';
    const proof = await submitOverHttp(app, player, id, {
      videoUrl: link,
      description: 'Preview that cannot play',
    });
    const { page, token } = await openAsDemoAdmin(app);
    await api('PUT', `/api/admin/submissions/${proof.id}`, token, { status: 'approved' });
    await page.getByRole('tab', { name: 'Submissions Management' }).click();
    const row = page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'Preview that cannot play' });
    // The list loads nothing before Play (preload none); the admin plays it from the keyboard.
    await row.getByLabel('Video by ').focus();
    await page.keyboard.press('Space');
    await row.getByText('This video cannot be played here.').waitFor({ timeout: 20_000 });
    expect(await row.getByRole('link', { name: 'Open original link' }).getAttribute('href')).toBe(link);
  });

  it('refuses a link to a page in the Submit Video form with the reason', async () => {
    const id = await demoDare('Paint a mural in one afternoon');
    // A wallet user: Submit Video first asks a password user for the account's wallet (issue 18, item 10).
    const { page } = await app.newPage({ wallet: true });
    await registerWithWallet(page, app.baseUrl, 'link_prover');
    await page.goto(app.url(`/dare/${id}`));
    await page.getByRole('button', { name: 'Submit Video' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Video URL').fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await dialog.getByLabel('Description').fill('My mural');
    await dialog
      .getByRole('button', { name: /submit/i })
      .last()
      .click();
    await dialog.getByText(/Links must point to a video file/).waitFor();
  });
});
