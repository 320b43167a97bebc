/**
 * Issue 16 in the browser: the money path on the escrow program (v2, every new vault's), with the
 * E2E Test Wallet signing the program's transactions (create_vault, deposit, enter, propose,
 * refund). A dare is created, another user adds to its pool and enters it with a video, the admin's
 * own wallet names the winner, the chain passes the payout window, the winner claims (execute);
 * and a payer refunds themselves from the dare's page after a cancel the platform could not pay.
 */
import { randomBytes } from 'node:crypto';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { lamportsToSol, solToLamports } from '#contract/money';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { getCancelV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { setupApp } from './fixtures/app';
import { createDareOverHttp, newClient, request } from './fixtures/http-client';
import { getFreePortPair } from './fixtures/server';
import { loginAsDemoAdmin, openAsDemoJudge, registerWithWallet, toast } from './fixtures/users';

// The test holds the server's master seed, so it can act as the moderator and empty the fee payer.
const masterSeed = randomBytes(64);
const chainPort = await getFreePortPair();
const app = setupApp({
  env: {
    ESCROW_MASTER_SEED: masterSeed.toString('hex'),
    CHAIN_RPC_PORT: String(chainPort),
    // The program's shortest payout window, passed by moving the embedded chain's clock.
    EMBEDDED_CHAIN_TEST_CONTROLS: '1',
    PAYOUT_WINDOW_HOURS: '1',
    // The winner's Claim Prize is what sends execute here, never the job between the warp and the
    // click; and no job run refills the fee payer the second test empties.
    PAYOUT_JOB_INTERVAL_SECONDS: '3600',
  },
});
const rpcUrl = `http://127.0.0.1:${chainPort}`;

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

async function lamportsOf(wallet: string): Promise<bigint> {
  const { balance } = await api<{ balance: string }>('POST', '/api/check-balance', null, {
    walletAddress: wallet,
  });
  return BigInt(balance);
}

/** A datetime-local value `days` ahead, in this machine's zone (the browser's zone too). */
function localDateTimeIn(days: number): string {
  const date = new Date(Date.now() + days * DAY_MS);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function getTestSol(page: Page) {
  await page.getByRole('button', { name: 'Get test SOL' }).click();
  await toast(page, 'Test SOL received');
}

async function addToPool(page: Page, amount: string) {
  await page.getByRole('button', { name: 'Add to Pool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to Pool' });
  await dialog.getByLabel('Amount (SOL)').fill(amount);
  await dialog.getByRole('button', { name: 'Add to Pool' }).click();
  await toast(page, 'Successfully added to pool!');
}

/** Sends `instructions` to the server's chain RPC, signed by `feePayer` and the instructions' signers. */
async function sendToChain(feePayer: TransactionSigner, instructions: Instruction[]) {
  const rpc = createSolanaRpc(rpcUrl);
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  const signature = await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  await waitForConfirmation(rpc, signature);
}

describe('the money path on the escrow program, in the browser', () => {
  it('create, add to the pool, enter with a video, name the winner, claim after the window: the winner gets the pool', async () => {
    const config = await api<{ escrowProgramV2Id: string }>('GET', '/api/config');

    // The creator stakes 0.5 SOL: the wallet signs create_vault (the dare's deadline is the vault's).
    const creator = await app.newPage({ wallet: true });
    await registerWithWallet(creator.page, app.baseUrl, 'e2e_creator');
    await getTestSol(creator.page);
    await creator.page.goto(app.url('/create-dare'));
    const form = creator.page.getByRole('form', { name: 'Create dare' });
    await form.getByLabel('Title').fill('Lake jump on the program');
    await form.getByLabel('Description').fill('Jump into the lake before sunrise, on video.');
    await form.getByLabel('Stake Amount (SOL)').fill('0.5');
    await form.getByRole('combobox', { name: 'Difficulty' }).click();
    await creator.page.getByRole('option', { name: 'Hard' }).click();
    await form.getByRole('combobox', { name: 'Category' }).click();
    await creator.page.getByRole('option', { name: 'Physical' }).click();
    await form.getByLabel('Deadline').fill(localDateTimeIn(3));
    await form.getByText(/^Available: 1\.99\d+ SOL$/).waitFor(); // 2 SOL less the vault's rent and the fee (issue 37, item 6)
    await form.getByRole('button', { name: 'Create Dare' }).click();
    await toast(creator.page, 'Dare Created!');
    await creator.page.getByRole('heading', { name: 'Lake jump on the program' }).waitFor();
    const dareId = Number(new URL(creator.page.url()).pathname.split('/').at(-1));
    const dare = await api<{ escrowWallet: string; totalPool: string }>('GET', `/api/dares/${dareId}`);

    // The dare's page links its vault on Solana Explorer (the chain's served RPC as a custom cluster).
    const vaultLink = creator.page.getByRole('link', { name: /View vault/ });
    expect(await vaultLink.getAttribute('href')).toBe(
      `https://explorer.solana.com/address/${dare.escrowWallet}?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`,
    );
    expect(await vaultLink.getAttribute('title')).toBe(
      `Vault ${dare.escrowWallet}, an account of DarePool's escrow program`,
    );
    // The vault is an account of escrow program v2, the program of every new dare.
    const { value: vaultAccount } = await createSolanaRpc(rpcUrl)
      .getAccountInfo(address(dare.escrowWallet), { encoding: 'base64' })
      .send();
    expect(vaultAccount?.owner).toBe(config.escrowProgramV2Id);

    // Another user adds 0.1 SOL (deposit), then enters with a video: the wallet signs the entry.
    const entrant = await app.newPage({ wallet: true });
    await registerWithWallet(entrant.page, app.baseUrl, 'e2e_entrant');
    await getTestSol(entrant.page);
    await entrant.page.goto(app.url(`/dare/${dareId}`));
    await addToPool(entrant.page, '0.1');
    const signedBefore = entrant.wallet!.requests.filter((r) => r.method === 'signTransaction').length;
    await entrant.page.getByRole('button', { name: 'Submit Video' }).click();
    const dialog = entrant.page.getByRole('dialog', { name: 'Submit Video' });
    await dialog.getByText(SUBMISSION_MESSAGES.entryPrompt).waitFor();
    // Said before the wallet is asked: the entry's rent and fee, from the chain (decision 034).
    await dialog.getByText('Entering costs 0.0019 SOL, returned to you when the dare ends').waitFor();
    await dialog.getByLabel('Video URL').fill('https://videos.example/lake-jump.mp4');
    await dialog.getByLabel('Description').fill('In at 5:40, out at 5:41.');
    await dialog.getByRole('button', { name: 'Submit Video' }).click();
    await toast(entrant.page, 'Video submitted successfully! Wait for admin approval.');
    const signatures = entrant.wallet!.requests.filter((r) => r.method === 'signTransaction');
    expect(signatures.slice(signedBefore)).toEqual([
      { method: 'signTransaction', origin: new URL(app.baseUrl).origin, outcome: 'approved' },
    ]);
    await entrant.page.getByRole('button', { name: 'Submitted' }).waitFor();

    // The admin approves the proof and names its author the winner of the whole pool: the demo
    // admin's own wallet, the vault's judge, signs the propose.
    const { page: panel } = await openAsDemoJudge(app);
    await panel.getByRole('tab', { name: 'Submissions Management' }).click();
    const row = panel
      .getByRole('list', { name: 'Submissions' })
      .getByRole('listitem')
      .filter({ hasText: 'e2e_entrant' });
    await row.getByRole('button', { name: 'Approve' }).click();
    await toast(panel, 'Submission status updated successfully');
    await row.getByRole('button', { name: 'Mark Winner' }).click();
    const ask = panel.getByRole('dialog', { name: 'Name e2e_entrant the winner?' });
    await ask.getByText(/^0\.6 SOL will be paid to their wallet on /).waitFor();
    await ask.getByRole('button', { name: 'Sign and name winner' }).click();
    await toast(panel, 'Winner named');

    // Nothing is paid inside the window; then the chain's clock passes it.
    const before = await lamportsOf(entrant.wallet!.address);
    await api('POST', '/api/dev/warp', null, { seconds: 3600 + 60 });

    // The winner claims: the program's execute pays the whole pool; the platform pays the fee.
    await entrant.page.goto(app.url('/profile'));
    const winning = entrant.page.getByRole('list', { name: 'Winning submissions' });
    await winning.getByRole('button', { name: 'Claim Prize' }).click();
    await toast(entrant.page, 'Prize claimed successfully!');
    await winning.getByText('Claimed', { exact: true }).waitFor();
    // The whole pool, plus the v2 entry's rent the entrant paid (1,893,120 lamports) and the rent of
    // the receipt it lent as a backer (decision 058), returned as the records close after the
    // payout (decision 034).
    const { limits } = await api<{ limits: { receiptRentSol: string } }>('GET', '/api/config');
    await expect
      .poll(async () => (await lamportsOf(entrant.wallet!.address)) - before)
      .toBe(600_000_000n + 1_893_120n + solToLamports(limits.receiptRentSol));
  }, 180_000);

  it("lets a payer refund themselves from the dare's page after a cancel the platform could not pay for", async () => {
    const keys = createEscrowKeys(masterSeed);
    const creator = await newClient(app, 7);
    const dare = await createDareOverHttp(app, creator, { title: 'Called off on the program', stake: '0.2' });
    const { escrowWallet } = await api<{ escrowWallet: string }>('GET', `/api/dares/${dare.id}`);

    const payer = await app.newPage({ wallet: true });
    await registerWithWallet(payer.page, app.baseUrl, 'e2e_payer');
    await getTestSol(payer.page);
    await payer.page.goto(app.url(`/dare/${dare.id}`));
    await addToPool(payer.page, '0.05');

    // The moderator (the v2 vault's canceller) cancels it; then the platform's fee payer is
    // emptied, so the server's own refunds cannot be sent: the admin's cancel refunds nobody.
    const feePayer = await keys.feePayer();
    await sendToChain(feePayer, [
      getCancelV2Instruction({
        programId: (await api<{ escrowProgramV2Id: Address }>('GET', '/api/config')).escrowProgramV2Id,
        vault: address(escrowWallet),
        canceller: await keys.moderator(),
      }),
    ]);
    const sink = (await newClient(app, 8)).address;
    await sendToChain(feePayer, [
      getTransferSolInstruction({
        source: feePayer,
        destination: address(sink),
        amount: (await lamportsOf(feePayer.address)) - 5_000n,
      }),
    ]);
    const admin = await loginAsDemoAdmin(app);
    const cancelled = await api<{ refunds: { refunded: number } }>(
      'PATCH',
      `/api/admin/dares/${dare.id}/status`,
      admin.token,
      { status: 'cancelled' },
    );
    expect(cancelled.refunds.refunded).toBe(0);

    // The payer's own wallet signs the refund and pays its fee.
    const before = await lamportsOf(payer.wallet!.address);
    await payer.page.reload();
    const refund = payer.page.getByRole('button', {
      name: `${REFUND_ME_MESSAGES.button} (${lamportsToSol(50_000_000n)} SOL)`,
    });
    await refund.click();
    await toast(payer.page, REFUND_ME_MESSAGES.success);
    // The backer lent its receipt's rent (decision 058): it comes back with the stake, named apart.
    const { limits } = await api<{ limits: { receiptRentSol: string } }>('GET', '/api/config');
    const receiptRent = solToLamports(limits.receiptRentSol);
    await toast(
      payer.page,
      `0.05 SOL back in your wallet, and ${lamportsToSol(receiptRent)} SOL of rent returned`,
    );
    expect((await lamportsOf(payer.wallet!.address)) - before).toBe(50_000_000n + receiptRent - 5_000n);
    await expect.poll(() => refund.count()).toBe(0);
    expect(payer.wallet!.requests.at(-1)).toMatchObject({ method: 'signTransaction', outcome: 'approved' });

    // One of its two payers has their SOL back, the creator's 0.2 is still in the vault: the
    // dare reads Refunding with the counts booked, never Refunded (issue 37, item 8).
    await payer.page.reload();
    const note = payer.page.getByRole('status', { name: 'Where the money went' });
    await note.getByText('Refunding: 1 of 2 backers refunded (0.05 of 0.25 SOL)').waitFor();
    expect(await payer.page.locator('[data-phase]').first().textContent()).toBe('Refunding');
    expect(await payer.page.getByText('Refunded', { exact: true }).count()).toBe(0);
  }, 120_000);
});
