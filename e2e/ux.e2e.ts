import { writeFileSync } from 'node:fs';
import { getBase64EncodedWireTransaction, getTransactionDecoder, signTransaction } from '@solana/kit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MajorDare } from '#contract/major-dare';
import { DAY_MS } from '#contract/time';
import { MAJOR_VOTE_NEEDS_PAYMENT } from '#contract/voting';
import { setupApp } from './fixtures/app';
import { call, type HttpClient, newClient, request, submitOverHttp } from './fixtures/http-client';
import { readSignedPropose } from './fixtures/judging';
import {
  loginAsDemoAdmin,
  openAsDemoAdmin,
  openAsDemoJudge,
  openSignedIn,
  registerWithWallet,
  toast,
} from './fixtures/users';

/**
 * Issue 26, at the widths where users tripped: where a finished dare's money went, votes that show,
 * reasons as text, rules before Submit, the phone header and toasts, the transaction page.
 * Screenshots go to /tmp/ux-*.png (not committed) for the closing note.
 */
const app = setupApp();
const PHONE = { width: 375, height: 740 };
const PASSWORD = 'bench-password-1';

/** Stakes a dare over HTTP as the web app does; `deadlineMs` from now (the vault's too). */
async function stakeDare(client: HttpClient, title: string, stake: string, deadlineMs = 7 * DAY_MS) {
  const deadline = new Date(Date.now() + deadlineMs).toISOString();
  const { publicKey: escrow } = await call<{ publicKey: string }>(
    app,
    '/api/create-escrow-wallet',
    undefined,
    client.token,
  );
  const signature = await pay(client, escrow, stake, deadline);
  return call<{ id: number; escrowWallet: string }>(
    app,
    '/api/dares',
    {
      title,
      description: 'Made over HTTP the way the web app makes one.',
      stakeAmount: stake,
      difficulty: 'easy',
      category: 'skill',
      deadline,
      userWallet: client.address,
      transactionSignature: signature,
      network: 'localnet',
      escrowWalletAddress: escrow,
    },
    client.token,
  );
}

async function pay(client: HttpClient, toWallet: string, amount: string, deadline?: string) {
  const { transaction } = await call<{ transaction: string }>(
    app,
    '/api/create-transaction',
    { fromWallet: client.address, toWallet, amount, ...(deadline ? { deadline } : {}) },
    client.token,
  );
  const unsigned = getTransactionDecoder().decode(Buffer.from(transaction, 'base64'));
  const signed = getBase64EncodedWireTransaction(await signTransaction([client.keys], unsigned));
  const { signature } = await call<{ signature: string }>(
    app,
    '/api/send-transaction',
    { signedTransaction: signed },
    client.token,
  );
  return signature;
}

/** Nothing on the page is wider than the phone. */
async function expectNoSideScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth))
    .toBeLessThanOrEqual(PHONE.width);
}

describe('where the money went (375 px)', () => {
  it('a dare that ended without a winner says when its stake comes back, and tells its payer', async () => {
    const creator = await newClient(app, 1);
    const dare = await stakeDare(creator, 'Nobody took this one', '0.1', 4000);
    // Waits for the deadline to pass as the server sees it, rather than sleeping past it.
    await expect
      .poll(async () => (await request<{ phase: string }>(app, 'GET', `/api/dares/${dare.id}`)).phase, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('ended');
    const { page } = await openSignedIn(
      app,
      { username: creator.username, password: PASSWORD },
      `/dare/${dare.id}`,
      { viewport: PHONE },
    );
    const note = page.getByRole('status', { name: 'Where the money goes' });
    await note.getByText(/^No winner: the stake is refunded on /).waitFor();
    // One set of words: Ended, never 'Completed' for a dare nobody won.
    expect(await page.locator('[data-phase]').first().textContent()).toBe('Ended');
    expect(await page.getByText('Completed', { exact: true }).count()).toBe(0);
    // The payer learns about Refund me now: when it opens (the vault's refund_after).
    await page
      .getByText(/^Refunds of this dare open on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/)
      .waitFor();
    // No entries: no vote counter either.
    expect(await page.getByTestId('votes-used').count()).toBe(0);
    await expectNoSideScroll(page);
    await page.screenshot({ path: '/tmp/ux-no-winner.png', fullPage: true });
  });

  it('a refunded dare says how much went back to how many backers, with the transactions, on its page, card and Profile', async () => {
    const creator = await newClient(app, 2);
    const backer = await newClient(app, 3);
    const dare = await stakeDare(creator, 'Refund me properly', '0.15');
    const paid = await pay(backer, dare.escrowWallet, '0.05');
    await request(app, 'POST', `/api/dares/${dare.id}/add-pool`, backer.token, {
      amount: '0.05',
      userWallet: backer.address,
      transactionSignature: paid,
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PATCH', `/api/admin/dares/${dare.id}/status`, admin.token, { status: 'cancelled' });

    const { page } = await openSignedIn(
      app,
      { username: backer.username, password: PASSWORD },
      `/dare/${dare.id}`,
      { viewport: PHONE },
    );
    const note = page.getByRole('status', { name: 'Where the money went' });
    await note.getByText('Refunded 0.2 SOL to 2 backers').waitFor();
    await expect.poll(() => note.getByRole('link', { name: 'View refund transaction' }).count()).toBe(2);
    expect(await page.locator('[data-phase]').first().textContent()).toBe('Refunded');
    expect(await page.getByText('Total Pool').count()).toBe(0);
    await expectNoSideScroll(page);
    await page.screenshot({ path: '/tmp/ux-refunded.png', fullPage: true });

    // Each refund's transaction page speaks DarePool and fits the phone; on program v2 each payer's
    // refund is a transaction of its own (decision 032).
    const refundPages = await note
      .getByRole('link', { name: 'View refund transaction' })
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
    const said: string[] = [];
    for (const href of refundPages) {
      await page.goto(app.url(href));
      const summary = page.getByRole('region', { name: 'What happened' });
      await summary
        .getByText(/^Refunded /)
        .first()
        .waitFor();
      said.push(...(await summary.getByText(/^Refunded /).allTextContents()));
      await expectNoSideScroll(page);
    }
    expect([...new Set(said.map((line) => line.replace(/ · Open dare$/, '')))].sort()).toEqual(
      [
        `Refunded 0.05 SOL to ${backer.username} from dare "Refund me properly"`,
        `Refunded 0.15 SOL to ${creator.username} from dare "Refund me properly"`,
      ].sort(),
    );

    // The card in the list, and the backer's Profile.
    await page.goto(app.url('/community-dares'));
    await page.getByRole('button', { name: 'All', exact: true }).click();
    const card = page.getByRole('link', { name: /Refund me properly/ });
    await card.getByText('Refunded 0.2 SOL to 2 backers').waitFor();
    await page.goto(app.url('/profile'));
    const activity = page.getByRole('list', { name: 'Recent activity' });
    await activity.getByText('Refunded 0.05 SOL from Refund me properly').waitFor();
    await activity.getByRole('link', { name: 'View refund transaction' }).waitFor();
  });

  it("a payout's transaction page leads with who was paid, and its balance table fits", async () => {
    const all = await request<{ id: number; title: string }[]>(app, 'GET', '/api/dares?filter=all&limit=50');
    const hike = all.find((d) => d.title === 'Sunrise summit hike')!;
    const outcome = await request<{ winners: { transactionSignature: string | null }[] }>(
      app,
      'GET',
      `/api/dares/${hike.id}/outcome`,
    );
    const signature = outcome.winners[0]!.transactionSignature!;
    const view = await request<{ summary: { text: string }[]; instructions: unknown[] }>(
      app,
      'GET',
      `/api/transactions/${signature}`,
    );
    expect(view.summary.map((line) => line.text).join(' | '), JSON.stringify(view.instructions)).toMatch(
      /^carol was paid [\d.]+ SOL from dare "Sunrise summit hike"$/,
    );
    const { page } = await app.newPage({ viewport: PHONE });
    page.setDefaultTimeout(10_000);
    await page.goto(app.url(`/tx/${signature}`));
    const summary = page.getByRole('region', { name: 'What happened' });
    await summary
      .getByText(/^carol was paid [\d.]+ SOL from dare "Sunrise summit hike" · Open dare$/)
      .waitFor();
    // Program v2 pays a named winner with `execute` once the guardian's window has passed.
    await page.getByText(/#\d DarePool escrow · execute/).waitFor();
    expect(await page.getByText(/unknown/).count()).toBe(0);
    await expectNoSideScroll(page);
    await page.screenshot({ path: '/tmp/ux-payout-tx.png', fullPage: true });
  });
});

describe('votes (375 px)', () => {
  it("a cast vote reads Voted, the counter says what is left and where, and a vote that can't be cast says why", async () => {
    const creator = await newClient(app, 4);
    const prover = await newClient(app, 5);
    const dare = await stakeDare(creator, 'Vote on me', '0.05');
    const proof = await submitOverHttp<{ id: number }>(app, prover, dare.id, {
      videoUrl: 'https://videos.example/vote-on-me.mp4',
      description: 'Done',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });

    const voter = await app.newPage({ wallet: true, viewport: PHONE });
    await registerWithWallet(voter.page, app.baseUrl, 'e2e_phone_voter');
    const { page } = voter;
    await page.goto(app.url(`/dare/${dare.id}`));
    const counter = page.getByTestId('votes-used');
    await expect.poll(() => counter.textContent()).toBe('3 of 3 votes left · 1 proof you can still vote for');
    await page.getByRole('button', { name: 'Vote (0 votes)' }).click();
    await toast(page, 'Vote added!');
    const voted = page.getByRole('button', { name: 'Voted (1 vote)' });
    await voted.waitFor();
    expect(await voted.isDisabled()).toBe(true);
    await expect.poll(() => counter.textContent()).toBe('2 of 3 votes left · no other proof to vote for yet');
    // After a reload too: the server says which proofs got this user's votes.
    await page.reload();
    await voted.waitFor();
    // The screenshot shows the page, not the vote's toast: taken once the toast has gone.
    await page.getByText('Vote added!', { exact: true }).waitFor({ state: 'detached', timeout: 15_000 });
    await page.screenshot({ path: '/tmp/ux-voted-phone.png', fullPage: true });

    // The Major Dare's vote for a user who never paid in: the reason is text, not a tooltip.
    await page.goto(app.url('/major-dare'));
    await page.getByText(MAJOR_VOTE_NEEDS_PAYMENT, { exact: true }).waitFor();
    expect(await page.getByText(MAJOR_VOTE_NEEDS_PAYMENT, { exact: true }).isVisible()).toBe(true);
    await page.getByTestId('vote-reason').getByText('Backers only').first().waitFor();
    await expectNoSideScroll(page);
  });
});

describe('reasons as text (375 px)', () => {
  it('says beside every disabled action why it is off, inside the phone’s width', async () => {
    const dares = await request<
      { id: number; status: string; phase: string; isMajor: boolean; deadline: string | null }[]
    >(app, 'GET', '/api/dares?limit=100');
    // The demo's deactivated dare, by its stored status (its phase reads Refunded: Deactivate gave
    // its SOL back): a cancelled dare takes no more SOL.
    const cancelled = dares.find((dare) => dare.status === 'cancelled' && !dare.isMajor);
    if (!cancelled) throw new Error('the demo data has a cancelled dare');
    /** The reason is on screen as text, not in a tooltip, and the phone shows all of it. */
    const expectShown = async (page: Page, text: string) => {
      const reason = page.getByText(text, { exact: true }).first();
      await reason.waitFor();
      const box = await reason.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    };

    // A visitor on a cancelled dare: Add to Pool is off, and says why.
    const visitor = await app.newPage({ viewport: PHONE });
    await visitor.page.goto(app.url(`/dare/${cancelled.id}`));
    await expect
      .poll(() => visitor.page.getByRole('button', { name: 'Add to Pool' }).isDisabled())
      .toBe(true);
    await expectShown(visitor.page, 'This dare no longer takes SOL');
    await expectNoSideScroll(visitor.page);

    // A dare whose deadline passes while its page is open (the browser's clock moved past it): the
    // page reads the one rule (closedReason, with the server's phase) and says the deadline passed.
    const open = dares.find((dare) => dare.phase === 'active' && !dare.isMajor && dare.deadline !== null);
    if (!open) throw new Error('the demo data has an active dare with a deadline');
    const late = await app.newPage({ viewport: PHONE });
    await late.page.clock.setFixedTime(new Date(new Date(open.deadline!).getTime() + 60_000));
    await late.page.goto(app.url(`/dare/${open.id}`));
    await expect.poll(() => late.page.getByRole('button', { name: 'Add to Pool' }).isDisabled()).toBe(true);
    await expectShown(late.page, 'The deadline has passed');

    // The admin on a phone: a reviewed proof's Approve and Reject are off, with the reason beside them.
    const admin = await openAsDemoAdmin(app, '/admin', { viewport: PHONE });
    await admin.page.getByRole('tab', { name: 'Submissions Management' }).click();
    const reviewed = admin.page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'Already approved' })
      .first();
    await reviewed.waitFor();
    expect(await reviewed.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    await expectShown(admin.page, 'Already approved');
  });
});

describe('rules before the form, phones', () => {
  it('says registration is off before the form, and offers Open in Phantom on a phone without a wallet', async () => {
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', '/api/admin/settings', admin.token, { registrationEnabled: false });
    try {
      const { page } = await app.newPage({ wallet: true, viewport: PHONE });
      await page.goto(app.url('/'));
      await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
      await page.getByRole('button', { name: 'E2E Test Wallet' }).click();
      // Nothing to complete: not titled 'Complete Registration' (issue 37, item 13).
      const dialog = page.getByRole('dialog', { name: 'Registration Unavailable' });
      await dialog.getByText(/^Registration is currently disabled/).waitFor();
      expect(await dialog.getByLabel('Username').count()).toBe(0);
      expect(await page.getByText('New Wallet Detected').count()).toBe(0);
    } finally {
      await request(app, 'PUT', '/api/admin/settings', admin.token, { registrationEnabled: true });
    }

    const { page } = await app.newPage({ viewport: PHONE });
    await page.goto(app.url('/community-dares'));
    await page.getByRole('button', { name: 'Connect Wallet' }).first().click();
    const phantom = page
      .getByRole('dialog', { name: 'Connect Wallet' })
      .getByRole('link', { name: 'Open in Phantom' });
    expect(await phantom.getAttribute('href')).toBe(
      `https://phantom.app/ul/browse/${encodeURIComponent(app.url('/community-dares'))}?ref=${encodeURIComponent(new URL(app.baseUrl).origin)}`,
    );
  });

  it('checks a video link as it is typed and a file as it is picked; the phone header shows the balance and toasts hide no header', async () => {
    const creator = await newClient(app, 6);
    const dare = await stakeDare(creator, 'Check my link', '0.05');
    const opened = await app.newPage({ wallet: true, viewport: PHONE });
    const { page } = opened;
    page.setDefaultTimeout(8_000);
    await registerWithWallet(page, app.baseUrl, 'e2e_phone_prover');
    // The balance chip is in the phone's top bar, not only in the menu.
    const header = page.locator('header');
    await expect.poll(() => header.getByTestId('wallet-balance').isVisible()).toBe(true);
    await expectNoSideScroll(page);

    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByRole('button', { name: 'Submit Video' }).click();
    const dialog = page.getByRole('dialog', { name: /Submit/ });
    await dialog.getByText('A direct https:// link to a video file: .mp4, .webm or .ogv').waitFor();
    await dialog.getByLabel('Video URL').fill('https://www.youtube.com/watch?v=abc');
    await dialog.getByText(/^Links must point to a video file/).waitFor();
    await dialog.getByLabel('Video URL').fill('');
    // 11 MB: the picker takes it, the field refuses it at once.
    writeFileSync('/tmp/ux-big.mp4', Buffer.alloc(11 * 1024 * 1024));
    await dialog.getByLabel('Video File').setInputFiles('/tmp/ux-big.mp4', { timeout: 60_000 });
    await dialog.getByText('Video file must be under 10MB').waitFor();
    await page.keyboard.press('Escape');

    // A toast sits at the bottom: it covers neither the header nor the top of the page.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Get test SOL' }).click();
    await page.keyboard.press('Escape');
    const shown = page.locator('li[data-state="open"]').first();
    await shown.waitFor();
    const box = await shown.boundingBox();
    const headerBox = await header.boundingBox();
    expect(box!.y).toBeGreaterThan(headerBox!.y + headerBox!.height + 200);
  });
});

describe('Public or Private, and Transaction Failed', () => {
  it('shows Public on the card and the page, and heads a failed Add to Pool with Transaction Failed', async () => {
    const creator = await newClient(app, 7);
    const dare = await stakeDare(creator, 'Public for all', '0.05');
    const opened = await app.newPage({ wallet: true, viewport: PHONE });
    const { page } = opened;
    await registerWithWallet(page, app.baseUrl, 'e2e_broke');
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByText('Public', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Add to Pool' }).click();
    const pool = page.getByRole('dialog', { name: 'Add to Pool' });
    await pool.getByText('Available: 0 SOL').waitFor();
    await pool.getByLabel('Amount (SOL)').fill('0.05');
    await pool.getByRole('button', { name: 'Add to Pool' }).click();
    const failure = pool.getByRole('alert').filter({ hasText: 'Not enough SOL' });
    await failure.getByText('Transaction Failed', { exact: true }).waitFor();
    await failure.getByText('Not enough SOL').waitFor();
    await page.keyboard.press('Escape');
    await page.goto(app.url('/community-dares'));
    const card = page.getByRole('link', { name: /Public for all/ });
    await card.getByText('Public', { exact: true }).waitFor();
  });
});

describe('Select Winners (1366 px)', () => {
  it('names both prizes in one confirmation and one signature, recording nothing before it; then closes each prize', async () => {
    const major = await request<MajorDare>(app, 'GET', '/api/major-dare');
    if (!major.isActive) throw new Error('the demo data has an active major dare');
    // A fresh entrant's approved proof for the admin's prize; bob's seeded proof (two votes, and
    // bob's wallet entered) is the most voted, so the community prize is his.
    const author = await newClient(app, 8);
    const proof = await submitOverHttp<{ id: number }>(app, author, major.id!, {
      videoUrl: 'https://videos.example/select-winners.mp4',
      description: 'Hundred push-ups, one take',
    });
    const admin = await loginAsDemoAdmin(app);
    await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, admin.token, { status: 'approved' });
    const outcomeOf = () =>
      request<{ winners: unknown[]; proposal: unknown }>(app, 'GET', `/api/dares/${major.id}/outcome`);
    const nothingRecorded = async () => {
      expect(await outcomeOf()).toMatchObject({ winners: [], proposal: null });
      expect(await request<MajorDare>(app, 'GET', '/api/major-dare')).toMatchObject({ status: 'active' });
      expect(await request<unknown[]>(app, 'GET', '/api/claims', author.token)).toEqual([]);
    };

    // The demo admin with its own wallet in the page: the judge who signs the Major Dare's propose.
    const { page, wallet } = await openAsDemoJudge(app, '/admin', { viewport: { width: 1366, height: 900 } });
    const signatures = () => wallet!.requests.filter((r) => r.method === 'signTransaction');
    const openWinners = async () => {
      await page.getByRole('tab', { name: 'Major Dares' }).click();
      await page
        .getByRole('list', { name: 'Major dares' })
        .getByRole('listitem', { name: major.title })
        .getByRole('button', { name: 'Select Winners' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Select Winners' });
      const list = dialog.getByRole('list', { name: 'Eligible submissions' });
      await list.waitFor();
      return list;
    };
    let list = await openWinners();
    const winners = page.getByRole('dialog', { name: 'Select Winners' });
    // The community prize is the server's rule, shown, not chosen; the admin's is chosen here.
    await winners.getByText('Community winner (30%, the most voted): bob', { exact: true }).waitFor();
    await list.getByRole('listitem', { name: 'bob' }).getByText('Community Winner (30%)').waitFor();
    const nameBoth = winners.getByRole('button', { name: 'Name both winners' });
    expect(await nameBoth.isDisabled()).toBe(true);
    const authorsPrize = list
      .getByRole('listitem', { name: author.username })
      .getByRole('button', { name: 'Admin Winner (70%)', exact: true });
    await authorsPrize.click();
    await expect.poll(() => authorsPrize.getAttribute('aria-pressed')).toBe('true');
    await nothingRecorded();

    // One confirmation names both winners and both amounts; cancelling it records nothing.
    const question = `Name ${author.username} and bob the winners?`;
    const propose = page.getByRole('dialog', { name: question });
    const amounts = new RegExp(
      `^${major.adminPrize.replace('.', '\\.')} SOL will be paid to ${author.username}'s wallet and ${major.communityPrize.replace('.', '\\.')} SOL to bob's on .+, unless the guardian vetoes it\\.$`,
    );
    await nameBoth.click();
    await propose.getByText(amounts).waitFor();
    const decoded = propose.getByRole('list', { name: 'Winners in the transaction' }).getByRole('listitem');
    await expect
      .poll(() => decoded.allTextContents())
      .toEqual([
        expect.stringMatching(new RegExp(`^${author.username} · .+ · 70%: ${major.adminPrize} SOL$`)),
        expect.stringMatching(new RegExp(`^bob · .+ · 30%: ${major.communityPrize} SOL$`)),
      ]);
    await propose.getByRole('button', { name: 'Cancel' }).click();
    await propose.waitFor({ state: 'detached' });
    expect(signatures()).toEqual([]);
    await nothingRecorded();

    // Confirmed: one signature, over a propose that pays both, and both prizes recorded.
    await nameBoth.click();
    const sent = page.waitForRequest(
      (r) =>
        r.url().endsWith(`/api/admin/major-dare/${major.id}/winners`) &&
        r.postData()?.includes('signedTransaction') === true,
    );
    await propose.getByRole('button', { name: 'Sign and name winners' }).click();
    await toast(page, 'Winner named');
    expect(signatures().map((r) => r.outcome)).toEqual(['approved']);
    const body = (await sent).postDataJSON() as { signedTransaction: string };
    const signed = await readSignedPropose(body.signedTransaction);
    const { proposal } = (await outcomeOf()) as {
      proposal: { winners: { walletAddress: string; amount: string }[] };
    };
    expect(proposal.winners.map((w) => w.amount)).toEqual([major.adminPrize, major.communityPrize]);
    expect(proposal.winners[0]!.walletAddress).toBe(author.address);
    expect(signed.winners).toEqual(proposal.winners.map((w) => w.walletAddress));
    expect(signed.validSigners).toContain(wallet!.address);

    const adminPrize = `Admin Winner (70%): ${major.adminPrize} SOL`;
    const communityPrize = `Community Winner (30%): ${major.communityPrize} SOL`;
    const expectClosed = async () => {
      const mine = list.getByRole('listitem', { name: author.username });
      const bobs = list.getByRole('listitem', { name: 'bob' });
      await mine.getByRole('button', { name: adminPrize, exact: true }).waitFor();
      await bobs.getByRole('button', { name: communityPrize, exact: true }).waitFor();
      expect(await mine.getByRole('button', { name: adminPrize, exact: true }).isDisabled()).toBe(true);
      expect(await bobs.getByRole('button', { name: communityPrize, exact: true }).isDisabled()).toBe(true);
      // Bob's own admin button says the prize is taken, in text.
      expect(await bobs.getByRole('button', { name: 'Admin Winner (70%)', exact: true }).isDisabled()).toBe(
        true,
      );
      await bobs.getByText('Already chosen', { exact: true }).waitFor();
      // Not one prize button in the list is live.
      const buttons = list.getByRole('button');
      expect(await buttons.count()).toBeGreaterThanOrEqual(3);
      for (const button of await buttons.all()) expect(await button.isDisabled()).toBe(true);
    };
    await expectClosed();

    // Clicking anyway leads nowhere: no confirmation to sign, no failure.
    for (const button of await list.getByRole('button').all()) await button.click({ force: true });
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog', { name: /^Name / }).count()).toBe(0);
    expect(await page.getByText('Failed to select winner').count()).toBe(0);

    // Closed for good: the same after a reload, read from the dare's outcome.
    await page.reload();
    list = await openWinners();
    await expectClosed();
    const claims = await request<{ claimType: string; amount: string }[]>(
      app,
      'GET',
      '/api/claims',
      author.token,
    );
    expect(claims.map((claim) => [claim.claimType, claim.amount])).toEqual([
      ['major_admin', major.adminPrize],
    ]);
  }, 90_000);
});
