/**
 * Issue 24 in the browser: judging on escrow program v2. The admin's own wallet (the injected E2E
 * Test Wallet) is the dare's judge: Mark Winner asks the server for the propose transaction, the
 * confirmation says who is paid how much and when unless the guardian vetoes it, the wallet signs
 * it and the server relays it. The dare page then shows the window with a live countdown; the
 * chain's clock is moved past the window (POST /api/dev/warp) and the winner is paid. The same
 * confirmation is opened at phone width (375×740).
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { PROPOSE_CHECK_MESSAGES } from '#web/features/admin/lib/propose-check-messages';
import { setupApp } from './fixtures/app';
import {
  createDareOverHttp,
  type HttpClient,
  newClient,
  request,
  submitOverHttp,
} from './fixtures/http-client';
import {
  addTransfer,
  swapAccount,
  swapProgram,
  type Tamper,
  tamperMarkWinner,
} from './fixtures/tamper-propose';
import { openSignedIn, passwordLogin, registerWithWallet, toast } from './fixtures/users';
import { walletAddressOf } from './fixtures/wallet-address';

// The judge's key: its address is an admin wallet and the only judge (threshold 1).
const JUDGE_KEY = new Uint8Array(32).fill(24);
const JUDGE = walletAddressOf(JUDGE_KEY);
const JUDGE_ACCOUNT = { username: 'e2e_judge', password: 'secret1' };
const WINDOW_HOURS = 24;
const app = setupApp({
  env: {
    ADMIN_WALLETS: JUDGE,
    JUDGE_WALLETS: JUDGE,
    JUDGE_THRESHOLD: '1',
    PAYOUT_WINDOW_HOURS: String(WINDOW_HOURS),
    EMBEDDED_CHAIN_TEST_CONTROLS: '1',
  },
});
const phone = { width: 375, height: 740 };

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

async function lamportsOf(wallet: string): Promise<bigint> {
  const { balance } = await api<{ balance: string }>('POST', '/api/check-balance', null, {
    walletAddress: wallet,
  });
  return BigInt(balance);
}

/** "0.35 SOL will be paid to their wallet on 28 Nov 14:05, 24 hours from now, unless …" */
const paysSentence = (sol: string) =>
  new RegExp(
    `^${sol.replace('.', '\\.')} SOL will be paid to their wallet on \\d{1,2} [A-Z][a-z]{2} \\d{2}:\\d{2}, ${WINDOW_HOURS} hours from now, unless the guardian vetoes it\\.$`,
  );

/** A dare of another user with one approved proof of `walker`, ready to be judged. */
async function judgeableDare(title: string, stake: string, walkerIndex: number) {
  const creator = await newClient(app, walkerIndex * 10);
  const walker = await newClient(app, walkerIndex * 10 + 1);
  const dare = await createDareOverHttp(app, creator, { title, stake });
  const proof = await submitOverHttp(app, walker, dare.id, {
    videoUrl: `https://videos.example/${walker.username}.mp4`,
    description: `${walker.username} did it`,
  });
  const judge = await passwordLogin(app, JUDGE_ACCOUNT);
  await api('PUT', `/api/admin/submissions/${proof.id}`, judge.token, { status: 'approved' });
  return { dare, proof, walker };
}

/** Opens Mark Winner on the walker's proof in the admin panel: the propose confirmation. */
async function openMarkWinner(page: Page, walker: HttpClient): Promise<Locator> {
  await page.goto(app.url('/admin'));
  await page.getByRole('tab', { name: 'Submissions Management' }).click();
  const row = page
    .getByRole('list', { name: 'Submissions' })
    .getByRole('listitem')
    .filter({ hasText: walker.username });
  await row.getByRole('button', { name: 'Mark Winner' }).click();
  const dialog = page.getByRole('dialog', { name: `Name ${walker.username} the winner?` });
  await dialog.waitFor();
  return dialog;
}

/** Nothing in the dialog sticks out of it or the screen (the check of dialogs.e2e.ts). */
async function expectFits(dialog: Locator) {
  const problems = await dialog.evaluate((root) => {
    const found: string[] = [];
    const box = root.getBoundingClientRect();
    if (root.scrollWidth > root.clientWidth)
      found.push(`content ${root.scrollWidth} px in ${root.clientWidth}`);
    if (box.left < 0 || box.right > window.innerWidth) found.push(`dialog spans ${box.left}..${box.right}`);
    for (const element of root.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5)
        found.push(`<${element.tagName.toLowerCase()}> spans ${rect.left}..${rect.right}`);
    }
    return found;
  });
  expect(problems).toEqual([]);
}

beforeAll(async () => {
  // The judge registers with its wallet once; ADMIN_WALLETS makes the account an admin.
  const opened = await app.newPage({ wallet: { privateKey: JUDGE_KEY } });
  await registerWithWallet(opened.page, app.baseUrl, JUDGE_ACCOUNT.username);
  await opened.close();
}, 90_000);

describe("naming a winner with the judge's own wallet, paid after the guardian's window", () => {
  // First: warping the chain's clock (the second test) makes every later window end further from
  // the wall clock, and the sentence says '24 hours from now'.
  it('shows the same confirmation whole on a 375 px phone, and it signs from there', async () => {
    const { dare, walker } = await judgeableDare('Handstand for a minute', '0.2', 2);
    const { page } = await openSignedIn(app, JUDGE_ACCOUNT, '/admin', {
      wallet: { privateKey: JUDGE_KEY },
      viewport: phone,
    });
    const dialog = await openMarkWinner(page, walker);
    expect(await dialog.getByText(paysSentence('0.2')).count()).toBe(1);
    await expectFits(dialog);
    const sign = dialog.getByRole('button', { name: 'Sign and name winner' });
    const box = (await sign.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= phone.width).toBe(true);
    await sign.click();
    await toast(page, 'Winner named');

    // The window reads on the phone too: the date as text, no tooltip.
    await page.goto(app.url(`/dare/${dare.id}`));
    const note = page.getByRole('status', { name: 'Payout proposal' });
    await note.getByText(/^Winner named — will be paid on /).waitFor();
    const width = await note.evaluate((element) => element.getBoundingClientRect().right);
    expect(width <= phone.width).toBe(true);
  }, 180_000);
  it('names the winner, shows the countdown, and pays once the chain passes the window', async () => {
    const { dare, proof, walker } = await judgeableDare('Juggle five balls', '0.35', 1);
    const opened = await openSignedIn(app, JUDGE_ACCOUNT, '/admin', { wallet: { privateKey: JUDGE_KEY } });
    const { page } = opened;

    const dialog = await openMarkWinner(page, walker);
    expect(await dialog.getByText(paysSentence('0.35')).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Sign and name winner' }).click();
    await toast(page, 'Winner named');
    await dialog.waitFor({ state: 'detached' });
    // The wallet signed exactly once: the propose, approved.
    expect(opened.wallet!.requests.filter((r) => r.method === 'signTransaction')).toEqual([
      { method: 'signTransaction', origin: new URL(app.baseUrl).origin, outcome: 'approved' },
    ]);
    // The prize is named: its button says so and is off.
    const row = page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: walker.username });
    await row.getByRole('button', { name: 'Named winner: 0.35 SOL' }).waitFor();
    expect(await row.getByRole('button', { name: 'Named winner: 0.35 SOL' }).isDisabled()).toBe(true);

    // The dare page: who judges, the window with its live countdown and the propose transaction.
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByText(JUDGING_MESSAGES.judgedBy(1, 1)).waitFor();
    const note = page.getByRole('status', { name: 'Payout proposal' });
    await note.getByText(/^Winner named — will be paid on \d{1,2} [A-Z][a-z]{2} \d{2}:\d{2}$/).waitFor();
    const countdown = note.getByText(/^\(in 2[23]h \d+m \d+s\) unless vetoed$/);
    const first = await countdown.textContent();
    await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first);
    const proposeLink = note.getByRole('link', { name: 'View proposal transaction' });
    expect(await proposeLink.getAttribute('href')).toMatch(/^\/tx\/[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    const outcome = await api<{ proposal: { signature: string; vetoed: boolean } | null }>(
      'GET',
      `/api/dares/${dare.id}/outcome`,
    );
    expect(outcome.proposal).toMatchObject({ vetoed: false });
    expect(await proposeLink.getAttribute('href')).toBe(`/tx/${outcome.proposal!.signature}`);

    // The chain's clock passes the window; the job (or the winner's claim) sends execute.
    const before = await lamportsOf(walker.address);
    await api('POST', '/api/dev/warp', null, { seconds: WINDOW_HOURS * 3600 + 60 });
    const paid = async () => {
      const now = await api<{ winners: { transactionSignature: string | null }[] }>(
        'GET',
        `/api/dares/${dare.id}/outcome`,
      );
      return now.winners.some((winner) => winner.transactionSignature !== null);
    };
    // Claim Prize after the window has the payout executed if the job has not yet.
    await expect
      .poll(
        async () => {
          if (await paid()) return true;
          await api('POST', '/api/claims/prize', walker.token, { submissionId: proof.id }).catch(() => {});
          return paid();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(true);
    await page.reload();
    await page
      .getByRole('status', { name: 'Winner' })
      .getByRole('link', { name: 'View payout transaction' })
      .waitFor();
    // The walker got the whole pool (and, as the entry closes, its rent back).
    expect((await lamportsOf(walker.address)) - before >= 350_000_000n).toBe(true);
  }, 180_000);
});

describe('the judge sees what the wallet signs: the web app reads the propose itself (issue 33 item 7)', () => {
  // Whoever a lying server would pay instead: a wallet nobody picked.
  const MALLORY = walletAddressOf(new Uint8Array(32).fill(66));
  const short = (wallet: string) => `${wallet.slice(0, 4)}…${wallet.slice(-4)}`;

  it('refuses a tampered propose before the wallet sees it, says why, and signs the honest one', async () => {
    const { dare, walker } = await judgeableDare('Walk on your hands', '0.25', 3);
    const opened = await openSignedIn(app, JUDGE_ACCOUNT, '/admin', { wallet: { privateKey: JUDGE_KEY } });
    const { page } = opened;
    const { escrowProgramV2Id } = await api<{ escrowProgramV2Id: string }>('GET', '/api/config');
    const vault = dare.escrowWallet;
    const signRequests = () => opened.wallet!.requests.filter((r) => r.method === 'signTransaction');

    const tampers: { what: string; tamper: Tamper; alsoWinner?: string; reason: string }[] = [
      {
        what: "the winner's wallet swapped (the answer's own description agreeing)",
        tamper: swapAccount(1, MALLORY),
        alsoWinner: MALLORY,
        reason: PROPOSE_CHECK_MESSAGES.wrongWinner(100, MALLORY, `${walker.username} (${walker.address})`),
      },
      {
        what: "an added transfer out of the judge's wallet",
        tamper: addTransfer(JUDGE, MALLORY),
        reason: PROPOSE_CHECK_MESSAGES.extraInstruction('11111111111111111111111111111111'),
      },
      {
        what: 'another vault',
        tamper: swapAccount(0, MALLORY),
        reason: PROPOSE_CHECK_MESSAGES.wrongVault(MALLORY, vault),
      },
      {
        what: 'another program',
        tamper: swapProgram(MALLORY),
        reason: PROPOSE_CHECK_MESSAGES.noProposal(MALLORY, escrowProgramV2Id),
      },
    ];
    await page.goto(app.url('/admin'));
    await page.getByRole('tab', { name: 'Submissions Management' }).click();
    const row = page
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: walker.username });
    for (const { what, tamper, alsoWinner, reason } of tampers) {
      const tampered = await tamperMarkWinner(page, tamper, { alsoWinner });
      await row.getByRole('button', { name: 'Mark Winner' }).click();
      const dialog = page.getByRole('dialog', { name: PROPOSE_CHECK_MESSAGES.notSigned });
      await dialog.waitFor();
      expect(tampered(), what).toBe(1);
      expect(await dialog.getByRole('alert').textContent(), what).toBe(reason);
      await dialog.getByText(PROPOSE_CHECK_MESSAGES.refused).waitFor();
      expect(await dialog.getByRole('button', { name: 'Sign and name winner' }).isDisabled(), what).toBe(
        true,
      );
      // Nothing named, and the wallet was never asked.
      expect(signRequests(), what).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    const outcome = await api<{ proposal: unknown }>('GET', `/api/dares/${dare.id}/outcome`);
    expect(outcome.proposal).toBeNull();

    // The honest answer: the confirmation names the winner the transaction pays, and it signs.
    await page.unrouteAll({ behavior: 'wait' });
    await row.getByRole('button', { name: 'Mark Winner' }).click();
    const dialog = page.getByRole('dialog', { name: `Name ${walker.username} the winner?` });
    await dialog.waitFor();
    const decoded = dialog.getByRole('list', { name: 'Winners in the transaction' }).getByRole('listitem');
    expect(await decoded.allTextContents()).toEqual([
      `${walker.username} · ${short(walker.address)} · 100%: 0.25 SOL`,
    ]);
    await dialog.getByRole('button', { name: 'Sign and name winner' }).click();
    await toast(page, 'Winner named');
    expect(signRequests()).toEqual([
      { method: 'signTransaction', origin: new URL(app.baseUrl).origin, outcome: 'approved' },
    ]);
    const named = await api<{ proposal: { winners: { walletAddress: string }[] } | null }>(
      'GET',
      `/api/dares/${dare.id}/outcome`,
    );
    expect(named.proposal?.winners.map((w) => w.walletAddress)).toEqual([walker.address]);
  }, 180_000);
});
