import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import { nameWinnerAsDemoJudge } from './fixtures/judging';
import { loginAsDemoAdmin } from './fixtures/users';

const app = setupApp();
const desktop = { width: 1366, height: 900 };

async function loginAsBob(): Promise<{ token: string; user: string; walletAddress: string }> {
  const res = await fetch(app.url('/api/auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bob', password: DEMO_USER_PASSWORD }),
  });
  if (!res.ok) throw new Error(`bob's login → ${res.status}`);
  const { token, user } = (await res.json()) as { token: string; user: { walletAddress: string } };
  return { token, user: JSON.stringify(user), walletAddress: user.walletAddress };
}

describe('the edges at 1366 px', () => {
  it("tells a password user before the form that the account's wallet must be connected", async () => {
    const bob = await loginAsBob();
    const { page, context } = await app.newPage({ viewport: desktop });
    await context.addInitScript(
      ([token, user]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', user);
      },
      [bob.token, bob.user] as const,
    );
    await page.goto(app.url('/create-dare'));
    const gate = page.getByRole('region', { name: 'Connect your wallet' });
    await gate.getByTestId('expected-wallet').getByText(bob.walletAddress, { exact: true }).waitFor();
    // No form to fill in before the wallet question is answered.
    expect(await page.getByLabel('Title').count()).toBe(0);
    // No wallet in this browser holds bob's address: the answer says so, with the address.
    await gate.getByRole('button', { name: 'Connect wallet' }).click();
    await gate
      .getByRole('alert')
      .getByText(`Connect the wallet of your account (${bob.walletAddress.slice(0, 4)}`, { exact: false })
      .waitFor();

    // The same question in Add to Pool, before any amount.
    const [dare] = await request<{ id: number; title: string }[]>(app, 'GET', '/api/dares?filter=active');
    await page.goto(app.url(`/dare/${dare!.id}`));
    await page.getByRole('button', { name: 'Add to Pool' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Pool' });
    await dialog.getByRole('button', { name: 'Connect wallet' }).waitFor();
    expect(await dialog.getByLabel('Amount (SOL)').count()).toBe(0);

    // Reputation is explained where it is shown.
    await page.keyboard.press('Escape');
    await page.goto(app.url('/profile'));
    await page.getByText('+1 for each approved proof, +10 for each prize paid out').waitFor();
  });

  it('names the real network the same way everywhere and lists each page once', async () => {
    const { page } = await app.newPage({ viewport: desktop });
    await page.goto(app.url('/'));
    await page.getByText('Live on Solana localnet', { exact: true }).waitFor();
    await page.getByTitle('Solana cluster').getByText('localnet', { exact: true }).waitFor();
    // The side menu lists every page; the top bar has the spec's links (issue 37, item 13).
    const top = page.getByRole('navigation', { name: 'Top' });
    for (const name of ['Home', 'Leaderboard', 'Create Dare', 'Profile'])
      expect(await top.getByRole('link', { name }).count(), name).toBe(1);
    for (const name of ['Community Dares', 'Admin'])
      expect(await top.getByRole('link', { name }).count(), name).toBe(0);
    const main = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'Leaderboard', 'Profile', 'Community Dares'])
      expect(await main.getByRole('link', { name }).count(), name).toBe(1);
  });

  it('gives each difficulty its own badge colour', async () => {
    const { page } = await app.newPage({ viewport: desktop });
    await page.goto(app.url('/community-dares'));
    await page.locator('[data-difficulty]').first().waitFor();
    const colours = await page.locator('[data-difficulty]').evaluateAll((badges) => {
      const byLevel: Record<string, string> = {};
      for (const badge of badges)
        byLevel[badge.getAttribute('data-difficulty')!] = getComputedStyle(badge).backgroundColor;
      return byLevel;
    });
    const levels = Object.keys(colours);
    expect(levels.length).toBeGreaterThan(1);
    expect(new Set(Object.values(colours)).size).toBe(levels.length);
  });

  // Two dialogs, an entry, and a winner named through the judge's propose and relay.
  it("asks a password user for the account's wallet before Submit Video, and shows a prize's payday in its window", {
    timeout: 60_000,
  }, async () => {
    // A password user whose wallet is elsewhere (the test holds its keys, to enter the dare later).
    const client = await newClient(app, 1);
    const { user } = await request<{ user: { walletAddress: string } }>(
      app,
      'GET',
      '/api/auth/me',
      client.token,
    );
    const bob = { token: client.token, user: JSON.stringify(user), walletAddress: user.walletAddress };
    const dares = await request<
      { id: number; title: string; isMajor: boolean; submissionCount: number; status: string }[]
    >(app, 'GET', '/api/dares?filter=active');
    // Not the first active dare (the first test adds to its pool): one nobody sent a proof to.
    const dare = dares.slice(1).find((d) => !d.isMajor && d.submissionCount === 0);
    if (!dare) throw new Error('the demo data has an active community dare without proofs');
    const { page, context } = await app.newPage({ viewport: desktop });
    await context.addInitScript(
      ([token, user]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', user);
      },
      [bob.token, bob.user] as const,
    );

    // Submit Video: the question, naming the address, before any field to fill in.
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByRole('button', { name: 'Submit Video' }).click();
    const submit = page.getByRole('dialog', { name: 'Submit Video' });
    const submitGate = submit.getByRole('region', { name: 'Connect your wallet' });
    await submitGate.getByTestId('expected-wallet').getByText(bob.walletAddress, { exact: true }).waitFor();
    await submitGate.getByRole('button', { name: 'Connect wallet' }).waitFor();
    expect(await submit.getByLabel('Video URL').count()).toBe(0);
    expect(await submit.getByLabel('Description').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => submit.count()).toBe(0);

    // Claim Prize: the user wins that dare (entered, sent and decided over the API), then opens the profile.
    const proof = await submitOverHttp(app, client, dare.id, {
      videoUrl: 'https://videos.example/bob-wins.mp4',
      description: 'Bob did it',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });
    // Named by the demo admin's wallet, the judge: the prize waits on the profile as a pending claim.
    await nameWinnerAsDemoJudge(app, admin.token, proof.id, dare.id);
    await page.goto(app.url('/profile'));
    const claimGate = page.getByRole('region', { name: 'Connect your wallet' });
    await claimGate.getByTestId('expected-wallet').getByText(bob.walletAddress, { exact: true }).waitFor();
    // The prize stays in view; during the guardian's window there is nothing to claim: the day it
    // pays instead of a Claim Prize that could only answer 'on its way' (issue 37, item 7).
    const winning = page.getByRole('list', { name: 'Winning submissions' });
    await winning.getByText(dare.title).waitFor();
    await winning
      .getByTestId('pays-on')
      .getByText(/^Paid on \d{1,2} [A-Z][a-z]{2} \d{2}:\d{2}$/)
      .waitFor();
    await winning.getByText(/^Winner named — will be paid on /).waitFor();
    await winning.getByText(/^\(in \d+h \d+m \d+s\) unless vetoed$/).waitFor();
    expect(await winning.getByRole('button', { name: 'Claim Prize' }).count()).toBe(0);
    // No wallet in this browser holds bob's address: the answer says so, with the address.
    await claimGate.getByRole('button', { name: 'Connect wallet' }).click();
    await claimGate
      .getByRole('alert')
      .getByText(`Connect the wallet of your account (${bob.walletAddress.slice(0, 4)}`, { exact: false })
      .waitFor();
  });

  it('gives focus back to the button that opened Connect Wallet (opened from state, not a Radix trigger)', async () => {
    const { page } = await app.newPage({ viewport: desktop });
    const dialog = page.getByRole('dialog', { name: 'Connect Wallet' });
    // The page behind an open dialog is hidden from the accessibility tree, so the opener is
    // marked first and found by its mark.
    const openerHasFocus = () =>
      page.evaluate(() => document.activeElement?.hasAttribute('data-test-opener') ?? false);
    const openWithKeyboardAndEscape = async (opener: ReturnType<typeof page.getByRole>) => {
      await opener.evaluate((element) => element.setAttribute('data-test-opener', ''));
      await opener.focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: 'Log In' }).waitFor();
      await expect.poll(openerHasFocus).toBe(false);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    };

    // The top bar's button, with the keyboard only.
    await page.goto(app.url('/'));
    await openWithKeyboardAndEscape(page.getByRole('banner').getByRole('button', { name: 'Connect Wallet' }));
    await expect.poll(openerHasFocus).toBe(true);

    // A prompt inside a page that opens the same dialog: a visitor's Submit Video.
    const [dare] = await request<{ id: number; title: string }[]>(app, 'GET', '/api/dares?filter=active');
    await page.goto(app.url(`/dare/${dare!.id}`));
    await openWithKeyboardAndEscape(page.getByRole('button', { name: 'Submit Video' }));
    await expect.poll(openerHasFocus).toBe(true);
  });
});
