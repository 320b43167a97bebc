import { describe, expect, it } from 'vitest';
import { lamportsToSol, solToLamports } from '#contract/money';
import { setupApp } from './fixtures/app';
import { request } from './fixtures/http-client';
import { openAsDemoJudge, registerWithWallet, toast } from './fixtures/users';

// The program's shortest payout window, passed by moving the embedded chain's clock. The payout
// job (which executes a due payout by itself, every minute by default) waits an hour, so what pays
// the winner here is their Claim Prize, however slow the machine.
const app = setupApp({
  env: { EMBEDDED_CHAIN_TEST_CONTROLS: '1', PAYOUT_WINDOW_HOURS: '1', PAYOUT_JOB_INTERVAL_SECONDS: '3600' },
});
/** The rent of a v2 entry account (144 bytes, with the proof's hash) on the embedded chain, and a signature's fee. */
const ENTRY_RENT = 1_893_120n;
const ENTRY_FEE = 5_000n;

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

describe('claiming a prize in the browser', () => {
  // Registration, entry, review, the judge's propose, the window and the claim: two pages' worth.
  it("pays the winner the dare's whole pool when they click Claim Prize", { timeout: 90_000 }, async () => {
    const { page, wallet } = await app.newPage({ wallet: true });
    await registerWithWallet(page, app.baseUrl, 'e2e_winner');
    // The entrant's wallet pays its entry (decision 034): exactly the entry's rent and fee, so the
    // wallet holds nothing else and its balance after the claim is what the payout brought.
    await api('POST', '/api/dev/airdrop', null, {
      walletAddress: wallet!.address,
      amount: lamportsToSol(ENTRY_RENT + ENTRY_FEE),
    });

    const dares = await api<{ id: number; title: string; totalPool: string; status: string }[]>(
      'GET',
      '/api/dares?filter=active',
      null,
    );
    const dare = dares[0]!;
    // The proof goes in from the dare's page: the wallet signs the entry (only entrants are paid).
    await page.goto(app.url(`/dare/${dare.id}`));
    await page.getByRole('button', { name: 'Submit Video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit Video' });
    await dialog.getByLabel('Video URL').fill('https://videos.example/winner.mp4');
    await dialog.getByLabel('Description').fill('Done, on camera');
    await dialog.getByRole('button', { name: 'Submit Video' }).click();
    await toast(page, 'Video submitted successfully! Wait for admin approval.');
    // The admin's part, in the Admin panel: the demo admin, with its own wallet, the dare's judge.
    const { page: panel } = await openAsDemoJudge(app);
    await panel.getByRole('tab', { name: 'Submissions Management' }).click();
    const row = panel
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'e2e_winner' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await toast(panel, 'Submission status updated successfully');
    // It names the winner of the whole pool, so it asks first; the judge's wallet signs the propose.
    await row.getByRole('button', { name: 'Mark Winner' }).click();
    const ask = panel.getByRole('dialog', { name: 'Name e2e_winner the winner?' });
    await ask.getByRole('button', { name: 'Sign and name winner' }).click();
    await toast(panel, 'Winner named');
    // The guardian's window passes on the chain's clock; then the winner may have it paid.
    await api('POST', '/api/dev/warp', null, { seconds: 3600 + 60 });

    // Exact: the chip shows at most 4 decimals (issue 37, item 9).
    const balance = () => page.getByTestId('wallet-balance').getAttribute('data-exact');
    await page.goto(app.url('/profile'));
    await expect.poll(balance).toBe('0 SOL');
    const winning = page.getByRole('list', { name: 'Winning submissions' });
    await winning.getByText(dare.title).waitFor();
    await winning.getByRole('button', { name: 'Claim Prize' }).click();
    await toast(page, 'Prize claimed successfully!');
    // The toast links the payout transaction, like every money toast.
    const payoutHref = await page
      .getByRole('link', { name: 'View transaction' })
      .first()
      .getAttribute('href');
    expect(payoutHref).toMatch(/^\/tx\/[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await winning.getByText('Claimed', { exact: true }).waitFor();
    // The pool, and the entry's rent back as its record closes after the payout.
    await expect.poll(balance).toBe(`${lamportsToSol(solToLamports(dare.totalPool) + ENTRY_RENT)} SOL`);

    // The profile shows the earnings; the history links the payout transaction.
    const earnings = page.getByText('Total Earnings', { exact: true }).locator('xpath=../..');
    await expect.poll(() => earnings.textContent()).toContain(`${dare.totalPool} SOL`);
    const history = page.getByRole('list', { name: 'Claims history' });
    await history.getByText('paid', { exact: true }).waitFor();
    await history.getByRole('link', { name: /^Payout / }).click();
    await page.waitForURL(/\/tx\//);
  });
});
