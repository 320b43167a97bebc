/**
 * Issue 35 in Chromium: a backer's bell lights up, live, when the admin's judge wallet names a
 * winner; the bell's list leads to the dare with its payout window. A rejected proof's author reads
 * the admin's reason on the dare page (issue 37, item 4) and in the bell. On a 375 px phone the bell
 * is in the top bar and its list fits the screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpCapture } from '#test/support/smtp-capture';
import { setupApp } from './fixtures/app';
import {
  addToPoolOverHttp,
  createDareOverHttp,
  type HttpClient,
  newClient,
  request,
  submitOverHttp,
} from './fixtures/http-client';
import { nameWinnerAsDemoJudge } from './fixtures/judging';
import { loginAsDemoAdmin, openAsDemoAdmin, openSignedIn, toast } from './fixtures/users';

/** A real SMTP server the app mails to. */
const smtp = await startSmtpCapture();
const { mails } = smtp;
afterAll(() => smtp.close());

const app = setupApp({
  env: {
    SMTP_URL: smtp.url,
    MAIL_FROM: 'DarePool <notify@darepool.test>',
  },
});
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const CLIENT_PASSWORD = 'bench-password-1';

const signedIn = (client: HttpClient, path: string, viewport = DESKTOP) =>
  openSignedIn(app, { username: client.username, password: CLIENT_PASSWORD }, path, { viewport });

/** The top bar's bell; its name says how many are unread. */
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

describe('notifications in the browser', () => {
  it("lights up a backer's bell when the judge names a winner, and leads to the dare with its window", {
    timeout: 120_000,
  }, async () => {
    const creator = await newClient(app, 351);
    const backer = await newClient(app, 352);
    const walker = await newClient(app, 353);
    const dare = await createDareOverHttp(app, creator, { title: 'Swim across the bay', stake: '0.1' });
    await addToPoolOverHttp(app, backer, dare, '0.05');
    const proof = await submitOverHttp(app, walker, dare.id, {
      videoUrl: `https://videos.example/${walker.username}.mp4`,
      description: 'Across and back',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });

    // The backer is on Home, nothing unread, when the winner is named.
    const { page } = await signedIn(backer, '/');
    await bell(page).waitFor();
    expect(await bell(page).getAttribute('aria-label')).toBe('Notifications');
    expect(await page.getByTestId('notification-count').count()).toBe(0);

    await nameWinnerAsDemoJudge(app, admin.token, proof.id, dare.id);

    // Live over the page's socket: no reload.
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('notification-count').textContent()).toBe('1');
    await bell(page).click();
    const list = page.getByRole('list', { name: 'Latest notifications' });
    const item = list.getByRole('listitem').first();
    await item.locator('[data-unread="true"]').waitFor();
    await item.getByRole('button').click();

    await page.waitForURL((url) => url.pathname === `/dare/${dare.id}`);
    const note = page.getByRole('status', { name: 'Payout proposal' });
    await note.getByText(/^Winner named — will be paid on /).waitFor();
    // Opening it marked it read.
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    const { unread, items } = await request<{
      unread: number;
      items: { dareId: number; readAt: string | null }[];
    }>(app, 'GET', '/api/notifications', (await loginAs(backer)).token);
    expect(unread).toBe(0);
    expect(items[0]?.dareId).toBe(dare.id);
    expect(items[0]?.readAt).not.toBeNull();
  });

  it("shows a rejected proof's author the admin's reason on the dare page and in the bell", {
    timeout: 120_000,
  }, async () => {
    const creator = await newClient(app, 354);
    const walker = await newClient(app, 355);
    const dare = await createDareOverHttp(app, creator, { title: 'Climb the old oak', stake: '0.05' });
    await submitOverHttp(app, walker, dare.id, {
      videoUrl: `https://videos.example/${walker.username}-oak.mp4`,
      description: 'Up the oak',
    });
    const reason = 'The video stops before the top of the tree';

    const admin = await openAsDemoAdmin(app, '/admin', { viewport: DESKTOP });
    await admin.page.getByRole('tab', { name: 'Submissions Management' }).click();
    const row = admin.page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'Up the oak' });
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = admin.page.getByRole('dialog', { name: `Reject ${walker.username}'s proof?` });
    await dialog.getByLabel('Reason (optional)').fill(reason);
    await dialog.getByRole('button', { name: 'Reject proof' }).click();
    await toast(admin.page, 'Submission status updated successfully');
    await row.getByText(`Rejected: ${reason}`).waitFor();

    const author = await signedIn(walker, `/dare/${dare.id}`, PHONE);
    const status = author.page.getByRole('status', { name: 'Your proof' });
    await status.getByText('Rejected', { exact: true }).waitFor();
    await status.getByText(reason, { exact: false }).waitFor();
    await status.getByText('A new proof cannot be submitted for this dare', { exact: false }).waitFor();
    expect(await author.page.getByRole('button', { name: 'Submit Video' }).count()).toBe(0);

    await author.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    const item = author.page
      .getByRole('list', { name: 'Latest notifications' })
      .getByRole('listitem')
      .first();
    await item.getByText(reason, { exact: false }).waitFor();
  });

  it('sets an email on Profile, verified only through its mail, with per-kind switches and the Major Dare opt-in', {
    timeout: 90_000,
  }, async () => {
    const user = await newClient(app, 357);
    const address = `${user.username}@mail.example`;
    const { page } = await signedIn(user, '/profile');
    const card = page.getByRole('region', { name: 'Notification settings' });
    await card.getByText('No email address', { exact: false }).waitFor();
    await card.getByLabel('Email address').fill(address);
    await card.getByRole('button', { name: 'Save email' }).click();
    await toast(page, 'Verification email sent');
    await card.getByText('is not verified yet', { exact: false }).waitFor();

    // The link in the mail, and only it, verifies the address.
    await expect
      .poll(() => mails.filter((mail) => mail.to.includes(address)).length, { timeout: 20_000 })
      .toBe(1);
    const raw = mails
      .find((mail) => mail.to.includes(address))!
      .raw.replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const path = /\/api\/profile\/email\/verify\?token=[A-Za-z0-9_-]+/.exec(raw)?.[0];
    expect(path).toBeDefined();
    await page.goto(app.url(path!));
    await page.waitForURL((url) => url.pathname === '/profile');
    await toast(page, 'Email verified');
    await card.getByText('is verified', { exact: false }).waitFor();

    const paid = card.getByRole('switch', { name: 'My prize is paid' });
    expect(await paid.getAttribute('aria-checked')).toBe('true');
    await paid.click();
    await expect.poll(() => paid.getAttribute('aria-checked')).toBe('false');
    const optIn = card.getByRole('switch', { name: 'Tell me when a Major Dare opens' });
    expect(await optIn.getAttribute('aria-checked')).toBe('false');
    await optIn.click();
    await expect.poll(() => optIn.getAttribute('aria-checked')).toBe('true');

    const saved = await request<{
      email: { address: string | null; verified: boolean };
      preferences: { email: Record<string, boolean> };
      majorDareOptIn: boolean;
    }>(app, 'GET', '/api/profile/notifications', (await loginAs(user)).token);
    expect(saved.email).toEqual({ address, verified: true });
    expect(saved.preferences.email['prize-paid']).toBe(false);
    expect(saved.preferences.email['refund-sent']).toBe(true);
    expect(saved.majorDareOptIn).toBe(true);
  });

  it('keeps the bell in a 375 px top bar, its list inside the screen, and takes it away on logout', {
    timeout: 60_000,
  }, async () => {
    const user = await newClient(app, 356);
    const { page } = await signedIn(user, '/', PHONE);
    await bell(page).waitFor();
    const box = (await bell(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(box.y + box.height).toBeLessThanOrEqual(64);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await bell(page).click();
    const popover = page.getByRole('dialog', { name: 'Notifications' });
    await popover.getByText('Nothing yet', { exact: false }).waitFor();
    const list = (await popover.boundingBox())!;
    expect(list.x).toBeGreaterThanOrEqual(0);
    expect(list.x + list.width).toBeLessThanOrEqual(PHONE.width);
    await popover.getByRole('link', { name: 'See all notifications' }).click();
    await page.waitForURL((url) => url.pathname === '/notifications');
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByText('No notifications yet').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Connect Wallet' }).first().waitFor();
    expect(await bell(page).count()).toBe(0);
  });
});

function loginAs(client: HttpClient) {
  return request<{ token: string }>(app, 'POST', '/api/auth/login', null, {
    username: client.username,
    password: CLIENT_PASSWORD,
  });
}
