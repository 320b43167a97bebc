import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { request } from './fixtures/http-client';

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
    // The side menu lists every page; the top bar does not repeat them.
    const top = page.getByRole('navigation', { name: 'Top' });
    for (const name of ['Home', 'Leaderboard', 'Profile', 'Community Dares'])
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
});
