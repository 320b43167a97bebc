import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { DEMO_USER_PASSWORD } from './fixtures/demo-accounts';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import { openAsDemoAdmin, openSignedIn, registerWithWallet, toast } from './fixtures/users';

const app = setupApp();
const phone = { width: 375, height: 740 };

/**
 * Fails when the dialog is wider inside than its box (scrollWidth > clientWidth) or anything in it
 * sticks out of its box or the screen: on a phone that is a clipped input or button.
 */
async function expectFits(dialog: Locator, what: string) {
  await dialog.waitFor();
  const problems = await dialog.evaluate((root) => {
    const found: string[] = [];
    const box = root.getBoundingClientRect();
    if (root.scrollWidth > root.clientWidth)
      found.push(`content ${root.scrollWidth} px wide in a ${root.clientWidth} px box`);
    if (box.left < 0 || box.right > window.innerWidth)
      found.push(`the dialog spans ${box.left}..${box.right} on a ${window.innerWidth} px screen`);
    for (const element of root.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      // Screen-reader-only text is a 1 px box by design.
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) {
        const text = (element.textContent ?? '').trim().slice(0, 40);
        found.push(`<${element.tagName.toLowerCase()}> "${text}" spans ${rect.left}..${rect.right}`);
      }
    }
    return found;
  });
  expect(problems, `${what} at ${phone.width} px`).toEqual([]);
}

async function closeWithEscape(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await expect.poll(() => dialog.count()).toBe(0);
}

async function activeCommunityDare(): Promise<{ id: number; title: string }> {
  const dares = await request<
    { id: number; title: string; status: string; isMajor: boolean; deadline: string | null }[]
  >(app, 'GET', '/api/dares?filter=active');
  const open = dares.find(
    (dare) =>
      dare.status === 'active' &&
      !dare.isMajor &&
      (dare.deadline === null || new Date(dare.deadline).getTime() > Date.now() + 3_600_000),
  );
  if (!open) throw new Error('the demo data has an active community dare');
  return open;
}

describe('every dialog on a 375 px phone', () => {
  it('Connect Wallet and Registration fit, Registration starts at Username, and no error toast', async () => {
    const visitor = await app.newPage({ viewport: phone });
    await visitor.page.goto(app.url('/'));
    await visitor.page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    const connect = visitor.page.getByRole('dialog', { name: 'Connect Wallet' });
    await connect.getByRole('button', { name: 'Log In' }).waitFor();
    await expectFits(connect, 'Connect Wallet without a wallet');
    await connect.getByText('No Solana wallet found in this browser.').waitFor();
    expect(await visitor.page.getByText('Phantom Wallet Not Found').count()).toBe(0);
    await closeWithEscape(visitor.page, connect);

    const { page } = await app.newPage({ viewport: phone, wallet: true });
    await page.goto(app.url('/'));
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    const withWallet = page.getByRole('dialog', { name: 'Connect Wallet' });
    await withWallet.getByRole('button', { name: 'E2E Test Wallet' }).waitFor();
    await expectFits(withWallet, 'Connect Wallet with a wallet');
    await withWallet.getByRole('button', { name: 'E2E Test Wallet' }).click();
    const registration = page.getByRole('dialog', { name: 'Complete Registration' });
    await expectFits(registration, 'Complete Registration');
    // Focus starts where the user types, not on the read-only wallet address.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('register-username');
  });

  it('Add to Pool, Submit Video and the phone menu fit, and the menu carries the balance', async () => {
    const { page } = await app.newPage({ viewport: phone, wallet: true });
    await registerWithWallet(page, app.baseUrl, 'phone_user');
    const dare = await activeCommunityDare();
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByRole('heading', { name: dare.title }).waitFor();

    await page.getByRole('button', { name: 'Add to Pool' }).click();
    const pool = page.getByRole('dialog', { name: 'Add to Pool' });
    await pool.getByText('Available: 0 SOL').waitFor();
    await expectFits(pool, 'Add to Pool');
    await pool.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => pool.count()).toBe(0);

    await page.getByRole('button', { name: 'Submit Video' }).click();
    const submit = page.getByRole('dialog', { name: /Submit/ });
    await submit.getByRole('button', { name: 'Submit Video' }).waitFor();
    await expectFits(submit, 'Submit Video');
    await closeWithEscape(page, submit);

    // Below 640 px the top bar keeps the balance chip (issue 26); the menu has it with Get test SOL.
    expect(await page.locator('header').getByTestId('wallet-balance').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    const wallet = menu.getByRole('region', { name: 'Wallet' });
    await expect.poll(() => wallet.getByTestId('wallet-balance').textContent()).toBe('0 SOL');
    await expectFits(menu, 'Menu');
    await wallet.getByRole('button', { name: 'Get test SOL' }).click();
    await toast(page, 'Test SOL received');
    await expect.poll(() => wallet.getByTestId('wallet-balance').textContent()).toBe('2 SOL');
    // One Escape closes the menu although a toast is open; the toast stays.
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await page.getByText('Test SOL received', { exact: true }).first().isVisible()).toBe(true);
    // The menu opens from state, not a Radix trigger: focus still goes back to its button.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Open menu');
  });

  it("Refund me by wallet fits, and a visitor's wallet with nothing there reads why", async () => {
    // The demo's deactivated dare: its one backer was refunded, so its vault is closed.
    const dares = await request<{ id: number; title: string }[]>(
      app,
      'GET',
      '/api/dares?filter=all&limit=50',
    );
    const dare = dares.find((d) => d.title === 'Juggle five balls for a minute');
    if (!dare) throw new Error("no demo dare 'Juggle five balls for a minute'");
    const { page } = await app.newPage({ viewport: phone, wallet: true });
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByRole('button', { name: 'Refund me', exact: true }).click();
    const refund = page.getByRole('dialog', { name: 'Refund me by wallet' });
    await expectFits(refund, 'Refund me by wallet');
    await refund.getByRole('button', { name: 'E2E Test Wallet' }).click();
    await expect.poll(() => refund.count()).toBe(0);
    await page.getByText("This dare's vault is closed: nothing is left to refund", { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /^Refund me \(/ }).count()).toBe(0);
  });

  it('the wallet question of a password user fits in Add to Pool and Submit Video, and Watch Video fits', async () => {
    // A dare bob sent no proof to, so Submit Video opens its dialog.
    const dare = (
      await request<{ id: number; title: string; isMajor: boolean; submissionCount: number }[]>(
        app,
        'GET',
        '/api/dares?filter=active',
      )
    ).find((d) => !d.isMajor && d.submissionCount === 0);
    if (!dare) throw new Error('the demo data has an active community dare without proofs');
    const { page } = await openSignedIn(
      app,
      { username: 'bob', password: DEMO_USER_PASSWORD },
      `/dare/${dare.id}`,
      { viewport: phone },
    );
    await page.getByRole('heading', { name: dare.title }).waitFor();
    // The account's 44-character address must wrap inside the dialog, not push it wider.
    for (const name of ['Add to Pool', 'Submit Video']) {
      await page.getByRole('button', { name }).click();
      const dialog = page.getByRole('dialog', { name });
      await dialog
        .getByRole('region', { name: 'Connect your wallet' })
        .getByTestId('expected-wallet')
        .waitFor();
      await expectFits(dialog, `${name} asking for the wallet`);
      await closeWithEscape(page, dialog);
    }

    // The demo's completed dare holds carol's approved proof, a real video.
    const dares = await request<{ id: number; title: string }[]>(
      app,
      'GET',
      '/api/dares?filter=all&limit=50',
    );
    const ended = dares.find((d) => d.title === 'Sunrise summit hike');
    if (!ended) throw new Error("the demo data has the completed dare 'Sunrise summit hike'");
    await page.goto(app.url(`/dare/${ended.id}`));
    await page
      .getByRole('article', { name: 'Submission by carol' })
      .getByRole('button', { name: 'Watch Video' })
      .click();
    const watch = page.getByRole('dialog');
    await watch.getByLabel('Video proof by carol').waitFor();
    await expectFits(watch, 'Watch Video');
    await closeWithEscape(page, watch);
  });

  it('the admin dialogs fit: users, create major dare, select winners, confirmations', async () => {
    // An approved submission on an active community dare, for Mark Winner's question.
    const dare = await activeCommunityDare();
    const player = await newClient(app, 1);
    const submission = await submitOverHttp(app, player, dare.id, {
      videoUrl: 'https://videos.example/phone-check.mp4',
      description: 'phone-check',
    });
    const { page, token } = await openAsDemoAdmin(app, '/admin', { viewport: phone });
    await request(app, 'PUT', `/api/admin/submissions/${submission.id}`, token, { status: 'approved' });

    await page.getByRole('button', { name: 'Manage Users' }).click();
    await expectFits(page.getByRole('dialog', { name: 'Users' }), 'Users');
    await closeWithEscape(page, page.getByRole('dialog', { name: 'Users' }));

    await page.getByRole('tab', { name: 'Dares Management' }).click();
    const row = page.getByRole('listitem').filter({ hasText: dare.title }).first();
    for (const [button, title] of [
      ['Deactivate', `Deactivate "${dare.title}"?`],
      ['Delete', `Delete "${dare.title}"?`],
    ] as const) {
      await row.getByRole('button', { name: button }).click();
      const confirm = page.getByRole('dialog', { name: title });
      await expectFits(confirm, title);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => confirm.count()).toBe(0);
    }

    await page.getByRole('tab', { name: 'Submissions Management' }).click();
    const mine = page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'phone-check' });
    await mine.getByRole('button', { name: 'Mark Winner' }).click();
    // On program v2 the question names the winner; the judge's wallet would sign from it.
    const payout = page.getByRole('dialog', { name: `Name ${player.username} the winner?` });
    await expectFits(payout, 'Mark Winner confirmation');
    await payout.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => payout.count()).toBe(0);

    await page.getByRole('tab', { name: 'Major Dares' }).click();
    await page.getByRole('button', { name: 'Create Major Dare' }).click();
    const create = page.getByRole('dialog', { name: 'Create Major Dare' });
    await expectFits(create, 'Create Major Dare');
    await closeWithEscape(page, create);

    await page.getByRole('button', { name: 'Select Winners' }).first().click();
    const winners = page.getByRole('dialog', { name: 'Select Winners' });
    await winners.getByRole('heading', { name: 'Select Winners' }).waitFor();
    // Measured with its content: the proofs, the community winner and Name both winners.
    await winners.getByRole('button', { name: 'Name both winners' }).waitFor();
    await expectFits(winners, 'Select Winners');
    await closeWithEscape(page, winners);
  });
});
