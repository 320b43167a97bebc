/**
 * 'Refund me' by wallet in the browser (issue 38, decision 066): a wallet with no DarePool account
 * backs a dare straight through the dare's Action, as a blink client does; the dare is called off
 * on the program while the platform cannot pay the refunds itself; then that wallet, injected as
 * the E2E Test Wallet into a fresh page that never signs in, connects on the dare's page, reads
 * its refund, signs it, and gets its 0.1 SOL and its receipt's rent back on chain. A wallet that
 * put nothing in the dare reads that it has nothing to take back, and no button; so does the
 * refunded wallet asked about from another account's session, whose own 'Refund me' stays.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import type { ActionPostResponse, CompletedAction } from '@solana/actions';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  createKeyPairFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getAddressFromPublicKey,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type Instruction,
  partiallySignTransaction,
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
import { waitForConfirmation } from '#server/chain/confirmation';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import { getCancelV2Instruction } from '#server/chain/escrow-program/v2/instructions';
import { setupApp } from './fixtures/app';
import { createDareOverHttp, newClient, request } from './fixtures/http-client';
import { getFreePortPair } from './fixtures/server';
import { loginAsDemoAdmin, openSignedIn, toast } from './fixtures/users';

// The test holds the server's master seed, so it can act as the moderator and empty the fee payer.
const masterSeed = randomBytes(64);
const chainPort = await getFreePortPair();
const app = setupApp({
  env: {
    ESCROW_MASTER_SEED: masterSeed.toString('hex'),
    CHAIN_RPC_PORT: String(chainPort),
    // No job run refills the fee payer the test empties, nor refunds the backer before it asks.
    PAYOUT_JOB_INTERVAL_SECONDS: '3600',
  },
});
const rpc = createSolanaRpc(`http://127.0.0.1:${chainPort}`);
const FEE = 5_000n;

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

const balanceOf = async (wallet: string) =>
  (await rpc.getBalance(address(wallet), { commitment: 'confirmed' }).send()).value;

/** Sends `instructions` to the chain, signed by `feePayer` and the instructions' signers. */
async function sendToChain(feePayer: TransactionSigner, instructions: Instruction[]) {
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

/**
 * Backs the dare through its Action as a blink client does, with a wallet nobody registered:
 * POST for the transaction, the wallet signs it and sends it to the chain, then `links.next`.
 */
async function backByBlink(dareId: number, privateKey: Uint8Array, sol: string): Promise<Address> {
  const keys = await createKeyPairFromPrivateKeyBytes(privateKey);
  const account = await getAddressFromPublicKey(keys.publicKey);
  await api('POST', '/api/dev/airdrop', null, { walletAddress: account, amount: '1' });
  const action = await api<ActionPostResponse>('POST', `/api/actions/dare/${dareId}?amount=${sol}`, null, {
    account,
  });
  if (action.type !== 'transaction') throw new Error(`not a transaction: ${JSON.stringify(action)}`);
  const unsigned = getTransactionDecoder().decode(Buffer.from(action.transaction, 'base64'));
  const signed = getBase64EncodedWireTransaction(await partiallySignTransaction([keys], unsigned));
  const signature = await rpc.sendTransaction(signed, { encoding: 'base64' }).send();
  await waitForConfirmation(rpc, signature);
  const next = action.links?.next;
  if (next?.type !== 'post') throw new Error(`the Action has no links.next to call: ${JSON.stringify(next)}`);
  const done = await api<CompletedAction>('POST', next.href, null, { account, signature });
  expect(done.type).toBe('completed');
  return account;
}

/** The moderator cancels the vault on chain, and the platform's fee payer is emptied first. */
async function callOffUnpaid(dareId: number, escrowWallet: string) {
  const keys = createEscrowKeys(masterSeed);
  const feePayer = await keys.feePayer();
  const { escrowProgramV2Id } = await api<{ escrowProgramV2Id: Address }>('GET', '/api/config');
  await sendToChain(feePayer, [
    getCancelV2Instruction({
      programId: escrowProgramV2Id,
      vault: address(escrowWallet),
      canceller: await keys.moderator(),
    }),
  ]);
  const sink = (await newClient(app, 9)).address;
  await sendToChain(feePayer, [
    getTransferSolInstruction({
      source: feePayer,
      destination: address(sink),
      amount: (await balanceOf(feePayer.address)) - FEE,
    }),
  ]);
  // The admin's Deactivate marks the dare cancelled; its own refunds cannot be paid, so none is sent.
  const admin = await loginAsDemoAdmin(app);
  const cancelled = await api<{ refunds: { refunded: number } }>(
    'PATCH',
    `/api/admin/dares/${dareId}/status`,
    admin.token,
    { status: 'cancelled' },
  );
  expect(cancelled.refunds.refunded).toBe(0);
}

/** On the dare's page, not signed in: 'Refund me', then the E2E Test Wallet in the dialog. */
async function connectOnDarePage(page: Page, dareId: number) {
  await page.goto(app.url(`/dare/${dareId}`));
  await page.getByRole('button', { name: REFUND_ME_MESSAGES.button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund me by wallet' });
  await dialog.getByRole('button', { name: 'E2E Test Wallet' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe("'Refund me' by wallet, with no account and no sign-in", () => {
  it('a blink backer connects on the dare page and takes its SOL back with one signature', async () => {
    const creator = await newClient(app, 1);
    const dare = await createDareOverHttp(app, creator, { title: 'Backed by a stranger', stake: '0.2' });
    const privateKey = webcrypto.getRandomValues(new Uint8Array(32));
    const backer = await backByBlink(dare.id, privateKey, '0.1');
    await callOffUnpaid(dare.id, dare.escrowWallet);

    const { page, wallet } = await app.newPage({ wallet: { privateKey } });
    expect(wallet!.address).toBe(backer);
    await connectOnDarePage(page, dare.id);
    const refund = page.getByRole('button', {
      name: `${REFUND_ME_MESSAGES.button} (${lamportsToSol(100_000_000n)} SOL)`,
    });
    const before = await balanceOf(backer);
    await refund.click();
    await toast(page, REFUND_ME_MESSAGES.success);
    // The receipt's rent the backer lent (decision 058) comes back with the stake, named apart.
    const { limits } = await api<{ limits: { receiptRentSol: string } }>('GET', '/api/config');
    const rent = solToLamports(limits.receiptRentSol);
    const words = `0.1 SOL back in your wallet, and ${lamportsToSol(rent)} SOL of rent returned`;
    await toast(page, words);
    expect((await balanceOf(backer)) - before).toBe(100_000_000n + rent - FEE);
    // The page keeps saying it is done, and offers the refund no more.
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: `Refunded: ${words}` })
        .count(),
    ).toBe(1);
    await expect.poll(() => refund.count()).toBe(0);
    // One connect and one signature: the wallet never signed in or signed a message.
    expect(wallet!.requests.map((r) => [r.method, r.outcome])).toEqual([
      ['connect', 'approved'],
      ['signTransaction', 'approved'],
    ]);
    const status = await api<{ refundable: boolean; reason: string }>(
      'GET',
      `/api/dares/${dare.id}/wallets/${backer}/refund-status`,
    );
    expect(status.refundable).toBe(false);

    // A wallet that put nothing in this dare reads so, and has no button.
    const other = await app.newPage({ wallet: true });
    await connectOnDarePage(other.page, dare.id);
    await other.page.getByText(REFUND_ME_MESSAGES.nothingToRefund, { exact: true }).waitFor();
    expect(await other.page.getByRole('button', { name: /^Refund me \(/ }).count()).toBe(0);
    expect(other.wallet!.requests.map((r) => r.method)).toEqual(['connect']);

    // Signed in as another wallet's account (the creator's, whose own stake is still there): its
    // own 'Refund me' stays, and 'Refund another wallet' asks about the connected one.
    const signedIn = await openSignedIn(
      app,
      { username: creator.username, password: 'bench-password-1' },
      `/dare/${dare.id}`,
      { wallet: { privateKey } },
    );
    await signedIn.page
      .getByRole('button', { name: `${REFUND_ME_MESSAGES.button} (${lamportsToSol(200_000_000n)} SOL)` })
      .waitFor();
    await signedIn.page.getByRole('button', { name: 'Refund another wallet' }).click();
    await signedIn.page
      .getByRole('dialog', { name: 'Refund me by wallet' })
      .getByRole('button', { name: 'E2E Test Wallet' })
      .click();
    await signedIn.page.getByText(REFUND_ME_MESSAGES.nothingToRefund, { exact: true }).waitFor();
    expect(await signedIn.page.getByRole('button', { name: /^Refund me \(/ }).count()).toBe(1);
  }, 180_000);
});
