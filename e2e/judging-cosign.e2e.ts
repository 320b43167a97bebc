/**
 * Issue 33 item 7 for the second of two judges (threshold 2): the proposal another judge started
 * is stored, partly signed, and handed to this judge by the admin panel's Payout proposals. A
 * tampered stored transaction (Playwright's page.route on GET /api/admin/proposals) is refused in
 * the dialog before the wallet is asked; the honest one shows the winners it pays and is signed.
 */
import {
  createKeyPairFromPrivateKeyBytes,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { beforeAll, expect, it } from 'vitest';
import { PROPOSE_CHECK_MESSAGES } from '#web/features/admin/lib/propose-check-messages';
import { setupApp } from './fixtures/app';
import { createDareOverHttp, newClient, request, submitOverHttp } from './fixtures/http-client';
import { swapAccount, tamperProposals } from './fixtures/tamper-propose';
import { openSignedIn, passwordLogin, registerWithWallet, toast } from './fixtures/users';
import { walletAddressOf } from './fixtures/wallet-address';

const FIRST_KEY = new Uint8Array(32).fill(31);
const SECOND_KEY = new Uint8Array(32).fill(32);
const FIRST = walletAddressOf(FIRST_KEY);
const SECOND = walletAddressOf(SECOND_KEY);
const FIRST_ACCOUNT = { username: 'e2e_judge_one', password: 'secret1' };
const SECOND_ACCOUNT = { username: 'e2e_judge_two', password: 'secret1' };
const MALLORY = walletAddressOf(new Uint8Array(32).fill(66));
const app = setupApp({
  env: {
    ADMIN_WALLETS: `${FIRST},${SECOND}`,
    JUDGE_WALLETS: `${FIRST},${SECOND}`,
    JUDGE_THRESHOLD: '2',
  },
});

beforeAll(async () => {
  for (const [key, account] of [
    [FIRST_KEY, FIRST_ACCOUNT],
    [SECOND_KEY, SECOND_ACCOUNT],
  ] as const) {
    const opened = await app.newPage({ wallet: { privateKey: key } });
    await registerWithWallet(opened.page, app.baseUrl, account.username);
    await opened.close();
  }
}, 90_000);

it('refuses a tampered stored propose to the co-signing judge, and signs the honest one with its winners shown', async () => {
  const creator = await newClient(app, 81);
  const walker = await newClient(app, 82);
  const title = 'Sing in the rain';
  const dare = await createDareOverHttp(app, creator, { title, stake: '0.2' });
  const proof = await submitOverHttp(app, walker, dare.id, {
    videoUrl: `https://videos.example/${walker.username}.mp4`,
    description: 'Sang it',
  });
  // The first judge names the winner over HTTP with its own key: one signature of two.
  const first = await passwordLogin(app, FIRST_ACCOUNT);
  await request(app, 'PUT', `/api/admin/submissions/${proof.id}`, first.token, { status: 'approved' });
  const markWinner = `/api/admin/submissions/${proof.id}/mark-winner`;
  const { transaction } = await request<{ transaction: string }>(app, 'POST', markWinner, first.token, {
    dareId: dare.id,
  });
  const signed = await partiallySignTransaction(
    [await createKeyPairFromPrivateKeyBytes(FIRST_KEY)],
    getTransactionDecoder().decode(Buffer.from(transaction, 'base64')),
  );
  expect(
    await request(app, 'POST', markWinner, first.token, {
      dareId: dare.id,
      signedTransaction: getBase64EncodedWireTransaction(signed),
    }),
  ).toMatchObject({ signaturesNeeded: 1 });

  const opened = await openSignedIn(app, SECOND_ACCOUNT, '/', { wallet: { privateKey: SECOND_KEY } });
  const { page } = opened;
  const signRequests = () => opened.wallet!.requests.filter((r) => r.method === 'signTransaction');
  const row = page.getByRole('list', { name: 'Payout proposals' }).getByRole('listitem', { name: title });
  const refusals = [
    {
      tamper: swapAccount(0, MALLORY),
      reason: PROPOSE_CHECK_MESSAGES.wrongVault(MALLORY, dare.escrowWallet),
    },
    // The list says the walker wins; the transaction would pay someone else.
    { tamper: swapAccount(1, MALLORY), reason: PROPOSE_CHECK_MESSAGES.misdescribed },
  ];
  for (const { tamper, reason } of refusals) {
    const tampered = await tamperProposals(page, tamper);
    await page.goto(app.url('/admin'));
    await row.getByRole('button', { name: 'Sign' }).click();
    const dialog = page.getByRole('dialog', { name: PROPOSE_CHECK_MESSAGES.notSigned });
    await dialog.waitFor();
    expect(tampered()).toBeGreaterThan(0);
    expect(await dialog.getByRole('alert').textContent()).toBe(reason);
    expect(await dialog.getByRole('button', { name: 'Sign and name winner' }).isDisabled()).toBe(true);
    expect(signRequests()).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  await page.unrouteAll({ behavior: 'wait' });
  await page.goto(app.url('/admin'));
  await row.getByRole('button', { name: 'Sign' }).click();
  const dialog = page.getByRole('dialog', { name: `Name ${walker.username} the winner?` });
  await dialog.waitFor();
  expect(
    await dialog
      .getByRole('list', { name: 'Winners in the transaction' })
      .getByRole('listitem')
      .allTextContents(),
  ).toEqual([
    `${walker.username} · ${walker.address.slice(0, 4)}…${walker.address.slice(-4)} · 100%: 0.2 SOL`,
  ]);
  await dialog.getByRole('button', { name: 'Sign and name winner' }).click();
  await toast(page, 'Winner named');
  expect(signRequests()).toHaveLength(1);
  const outcome = await request<{ proposal: { winners: { walletAddress: string }[] } | null }>(
    app,
    'GET',
    `/api/dares/${dare.id}/outcome`,
  );
  expect(outcome.proposal?.winners.map((w) => w.walletAddress)).toEqual([walker.address]);
}, 180_000);
