import { describe, expect, it } from 'vitest';
import type { PublicConfig } from '#contract/config';
import type { MajorDare } from '#contract/major-dare';
import { lamportsToSol, solToLamports } from '#contract/money';
import { setupApp } from './fixtures/app';
import { call, createDareOverHttp, newClient, request, submitOverHttp } from './fixtures/http-client';
import { nameWinnerAsDemoJudge } from './fixtures/judging';
import { loginAsDemoAdmin, openAsDemoAdmin, openSignedIn, registerWithWallet } from './fixtures/users';

/**
 * Issue 37 (round three of what users trip over), each at the width where it broke: Add to Pool on
 * the Major Dare, a visitor asked for the wallet first, the balance chip, the creator's vault rent,
 * Profile on a phone, a rejected proof's author, an admin reviewing a link proof and a copy, the
 * top bar's links.
 */
const app = setupApp();
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const CLIENT_PASSWORD = 'bench-password-1';

type ListedDare = { id: number; title: string; isMajor: boolean; submissionCount: number };

/** An active community dare of the demo data nobody sent a proof to (a test takes the one it needs). */
async function untouchedDares(): Promise<ListedDare[]> {
  const dares = await request<ListedDare[]>(app, 'GET', '/api/dares?filter=active');
  return dares.filter((d) => !d.isMajor && d.submissionCount === 0);
}

describe('issue 37', () => {
  it('offers Add to Pool on the Major Dare page and card with the vote it brings, asking a visitor for the wallet first (375 px)', async () => {
    const major = await request<MajorDare>(app, 'GET', '/api/major-dare');
    expect(major.isActive).toBe(true);
    const { page } = await app.newPage({ viewport: PHONE });
    const balanceChecks: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/check-balance')) balanceChecks.push(req.url());
    });
    await page.goto(app.url('/major-dare'));
    await page.getByTestId('backing-votes').getByText("Backers vote for the community's 30% prize").waitFor();
    await page.getByRole('button', { name: 'Add to Pool' }).click();
    // A visitor: the wallet first, no amount form that can only fail.
    await page.getByRole('dialog', { name: 'Connect Wallet' }).waitFor();
    expect(await page.getByLabel('Amount (SOL)').count()).toBe(0);
    expect(balanceChecks).toEqual([]);

    await page.keyboard.press('Escape');
    await page.goto(app.url('/'));
    await page.getByRole('button', { name: 'Add to Pool' }).first().waitFor();
    await page.getByTestId('backing-votes').first().waitFor();
    expect(balanceChecks).toEqual([]);
  });

  it('shows the balance chip whole at 4 decimals, and the vault rent before Create Dare, counted in Available', {
    timeout: 60_000,
  }, async () => {
    const { page, wallet } = await app.newPage({ wallet: true, viewport: PHONE });
    await registerWithWallet(page, app.baseUrl, 'rent_reader');
    await call(app, '/api/dev/airdrop', { walletAddress: wallet!.address, amount: '1.23456789' });
    const chipFits = async () => {
      const chip = page.getByTestId('wallet-balance');
      await expect.poll(() => chip.textContent(), { timeout: 10_000 }).toBe('1.2345 SOL');
      return chip.evaluate((element) => {
        const box = element.parentElement!;
        return box.scrollWidth <= box.clientWidth;
      });
    };
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(app.url('/create-dare'));
      expect(await chipFits(), `${viewport.width} px`).toBe(true);
    }

    const config = await request<PublicConfig>(app, 'GET', '/api/config');
    const rent = config.limits.newVaultRentSol;
    await page
      .getByTestId('vault-rent')
      .getByText(`Creating the dare also lends ${rent} SOL of rent to its vault`, { exact: false })
      .waitFor();
    const available =
      solToLamports('1.23456789') - solToLamports(rent) - solToLamports(config.limits.networkFeeSol);
    await page
      .getByTestId('available-balance')
      .getByText(`Available: ${lamportsToSol(available)} SOL`)
      .waitFor();

    await page.goto(app.url('/instructions'));
    await page
      .getByText(`Your wallet also pays the vault's rent (${rent} SOL today)`, { exact: false })
      .waitFor();
    expect(await page.getByText("DarePool pays the vault's rent").count()).toBe(0);
  });

  it("fits Profile's Reward Claims in a 375 px phone, a long proof description and all", {
    timeout: 60_000,
  }, async () => {
    const dares = await untouchedDares();
    const dare = dares.at(-1);
    if (!dare) throw new Error('the demo data has an active community dare without proofs');
    const winner = await newClient(app, 10);
    const proof = await submitOverHttp(app, winner, dare.id, {
      videoUrl: `https://videos.example/${winner.username}-long.mp4`,
      description:
        'Twenty-one consecutive sunrise swims in the harbour, every single one of them filmed from the pier',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });
    await nameWinnerAsDemoJudge(app, admin.token, proof.id, dare.id);
    const { page } = await openSignedIn(
      app,
      { username: winner.username, password: CLIENT_PASSWORD },
      '/profile',
      { viewport: PHONE },
    );
    await page.getByRole('list', { name: 'Winning submissions' }).getByText(dare.title).waitFor();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      card: document.getElementById('claims-history')!.closest('.grid')!.scrollWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(PHONE.width);
    expect(widths.card).toBeLessThanOrEqual(PHONE.width);
  });

  it("tells a rejected proof's author on the dare page; the admin plays a link proof and is warned of a copy", {
    timeout: 90_000,
  }, async () => {
    const client = await newClient(app, 37);
    const first = await createDareOverHttp(app, client, { title: 'Film the tide coming in', stake: '0.05' });
    const second = await createDareOverHttp(app, client, { title: 'Film the tide going out', stake: '0.05' });
    const link = `https://127.0.0.1:9/${client.username}.mp4`;
    const proof = await submitOverHttp(app, client, first.id, { videoUrl: link, description: 'Mine' });
    // The same user's link on another dare is allowed, and the admin sees it matches an earlier one.
    const again = await submitOverHttp(app, client, second.id, { videoUrl: link, description: 'Again' });

    const admin = await openAsDemoAdmin(app, '/admin', { viewport: DESKTOP });
    await admin.page.getByRole('tab', { name: 'Submissions Management' }).click();
    const list = admin.page.getByRole('list', { name: 'Submissions' });
    const copy = list.getByRole('listitem').filter({ hasText: 'Again' });
    await copy
      .getByRole('alert')
      .getByText(`Possible copy: the same video as ${client.username}'s earlier proof`, { exact: false })
      .waitFor();
    expect(await copy.getByText(`(submission #${proof.id})`, { exact: false }).count()).toBe(1);
    const original = list.getByRole('listitem').filter({ hasText: 'Mine' });
    await original.getByRole('button', { name: 'Play it here' }).click();
    await expect.poll(() => original.locator('video').getAttribute('src')).toBe(link);

    const adminSession = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, adminSession.token, {
      status: 'rejected',
    });
    const author = await openSignedIn(
      app,
      { username: client.username, password: CLIENT_PASSWORD },
      `/dare/${first.id}`,
      { viewport: PHONE },
    );
    const status = author.page.getByRole('status', { name: 'Your proof' });
    await status.getByText('Rejected', { exact: true }).waitFor();
    await status.getByText('A new proof cannot be submitted for this dare', { exact: false }).waitFor();
    expect(await author.page.getByRole('button', { name: 'Submit Video' }).count()).toBe(0);
    expect(again.id).toBeGreaterThan(proof.id);
  });

  it("puts the spec's links in the top bar, Admin for admins only", async () => {
    const { page } = await openAsDemoAdmin(app, '/', { viewport: DESKTOP });
    const top = page.getByRole('navigation', { name: 'Top' });
    for (const name of ['Home', 'Leaderboard', 'Create Dare', 'Profile', 'Admin'])
      await top.getByRole('link', { name, exact: true }).waitFor();
    const visitor = await app.newPage({ viewport: DESKTOP });
    await visitor.page.goto(app.url('/'));
    const visitorTop = visitor.page.getByRole('navigation', { name: 'Top' });
    await visitorTop.getByRole('link', { name: 'Leaderboard' }).waitFor();
    expect(await visitorTop.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
  });
});
