import {
  address,
  appendTransactionMessageInstruction,
  type Base64EncodedWireTransaction,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  pipe,
  type Signature,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { solToLamports } from '#contract/money';
import type { VaultKind } from '#contract/payments';
import { DAY_MS } from '#contract/time';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { memoInstruction } from '#server/chain/memo';
import type { ChainPort } from '#server/chain/port';
import { ledgerBalanceOf } from '#server/ledger/repo';
import type { TestContext } from './app';
import { servicesFor } from './services';
import { bearer, type TestWallet } from './wallet';

export interface PaidStake {
  escrow: string;
  reference: string;
  signature: string;
  /** The deadline the vault was created with, when the payment asked for one (dareBody sends it). */
  deadline?: string;
}

/** create-transaction's optional fields for a new dare's vault (decision 021). */
export interface VaultOptions {
  deadline?: string;
  kind?: VaultKind;
}

const post = (app: FastifyInstance, url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

/** Test SOL through the API, as the 'Get test SOL' button does. */
export async function airdrop(app: FastifyInstance, wallet: TestWallet, sol: string): Promise<void> {
  const res = await post(app, '/api/dev/airdrop', { walletAddress: wallet.address, amount: sol });
  if (res.statusCode !== 200) throw new Error(`airdrop failed: ${res.body}`);
}

/**
 * What the wallet does with the server's transaction: adds the user's signature, keeping the one
 * DarePool's rent payer put there (as a wallet's signTransaction does).
 */
export async function signBase64(wallet: TestWallet, base64: string): Promise<string> {
  const tx = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  return getBase64EncodedWireTransaction(await signTransaction([wallet.keys], tx));
}

/** The deadline a test's stake is made with when it names none: a week from now, as dareBody's. */
export function defaultDeadline(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000 + 7 * DAY_MS).toISOString();
}

/**
 * Steps 3 to 6 of the create dare flow over HTTP: vault address, build (create_vault), sign, send.
 * `vault` names the deadline and kind of the new vault as the web app does (the deadline is
 * required for a new vault: left out, defaultDeadline(), which dareBody then uses too).
 */
export async function payStake(
  app: FastifyInstance,
  token: string,
  wallet: TestWallet,
  amount: string,
  vault: VaultOptions = {},
): Promise<PaidStake> {
  const escrowRes = await post(app, '/api/create-escrow-wallet', undefined, token);
  if (escrowRes.statusCode !== 200) throw new Error(`escrow failed: ${escrowRes.body}`);
  const escrow = escrowRes.json().publicKey as string;
  const terms = { ...vault, deadline: vault.deadline ?? defaultDeadline() };
  const paid = await payTo(app, token, wallet, escrow, amount, terms);
  return { escrow, ...paid, deadline: terms.deadline };
}

/** Build, sign and send a payment into a dare's vault (a stake or a contribution). */
export async function payTo(
  app: FastifyInstance,
  token: string,
  wallet: TestWallet,
  escrow: string,
  amount: string,
  vault: VaultOptions = {},
): Promise<{ reference: string; signature: string }> {
  const built = await post(
    app,
    '/api/create-transaction',
    { fromWallet: wallet.address, toWallet: escrow, amount, ...vault },
    token,
  );
  if (built.statusCode !== 200) throw new Error(`create-transaction failed: ${built.body}`);
  const { transaction, reference } = built.json() as { transaction: string; reference: string };
  const sent = await post(
    app,
    '/api/send-transaction',
    { signedTransaction: await signBase64(wallet, transaction) },
    token,
  );
  if (sent.statusCode !== 200) throw new Error(`send-transaction failed: ${sent.body}`);
  return { reference, signature: sent.json().signature as string };
}

export function dareBody(wallet: TestWallet, paid: PaidStake, stakeAmount: string, overrides: object = {}) {
  return {
    title: 'Eat a lemon',
    description: 'A whole lemon, peel included, on camera.',
    stakeAmount,
    difficulty: 'easy',
    category: 'creative',
    deadline: paid.deadline ?? new Date(Date.now() + 7 * DAY_MS).toISOString(),
    userWallet: wallet.address,
    transactionSignature: paid.signature,
    network: 'localnet',
    escrowWalletAddress: paid.escrow,
    ...overrides,
  };
}

/**
 * A transfer the wallet builds and signs itself (not prepared by the server), as base64 wire
 * bytes: how a client would try to pay, or to have the relay send something else. `reference`
 * puts an intent's reference in a memo, as the server's own transactions carry it.
 */
export async function signedOwnTransfer(
  chain: ChainPort,
  wallet: TestWallet,
  options: { to: string; sol: string; reference?: string },
): Promise<string> {
  const { value: blockhash } = await chain.rpc.getLatestBlockhash().send();
  const from = address(wallet.address);
  const transfer = getTransferSolInstruction({
    source: createNoopSigner(from),
    destination: address(options.to),
    amount: solToLamports(options.sol),
  });
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstruction(transfer, m),
    (m) =>
      options.reference ? appendTransactionMessageInstruction(memoInstruction(options.reference), m) : m,
  );
  const signed = await signTransaction([wallet.keys], compileTransaction(message));
  return getBase64EncodedWireTransaction(signed);
}

/** Sends a signed wire transaction straight to the chain, bypassing the server's relay. */
export async function sendStraight(
  chain: ChainPort,
  wire: string,
  options: { skipPreflight?: boolean } = {},
): Promise<string> {
  return chain.rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, {
      encoding: 'base64',
      skipPreflight: options.skipPreflight ?? false,
    })
    .send();
}

/** Sends such a transfer straight to the chain, bypassing the server's relay. */
export async function sendOwnTransfer(
  chain: ChainPort,
  wallet: TestWallet,
  options: { to: string; sol: string; reference?: string; skipPreflight?: boolean },
): Promise<string> {
  return sendStraight(chain, await signedOwnTransfer(chain, wallet, options), options);
}

/** Waits until the chain reports a status for `signature` (landed, successful or not). */
export async function waitUntilLanded(chain: ChainPort, signature: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { value } = await chain.rpc.getSignatureStatuses([signature as Signature]).send();
    if (value[0]?.confirmationStatus) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`transaction ${signature} never landed`);
}

/**
 * The payments job (lapsed payments) the server runs every minute, driven with the test clock:
 * refused vaults go to the refunds feature, as routes.ts wires it (createServices).
 */
export function lapsedPaymentsJob(ctx: TestContext) {
  return { run: servicesFor(ctx).payments.settleLapsed };
}

/** A vault's books equal the chain: the ledger's balance is what the vault holds above its rent. */
export async function expectVaultBooked(ctx: TestContext, vault: string): Promise<bigint> {
  const onChain = await fetchVault(
    ctx.chain.rpc,
    { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id },
    address(vault),
  );
  const { value: lamports } = await ctx.chain.rpc
    .getBalance(address(vault), { commitment: 'confirmed' })
    .send();
  const held = onChain ? lamports - onChain.rent : lamports;
  expect(await ledgerBalanceOf(ctx.database.db, vault)).toBe(held);
  return held;
}

/**
 * One Major Dare is live at a time (issue 37, item 2): a test that pays another one's prize first
 * deactivates the live one, which refunds its payers on chain.
 */
export async function endLiveMajorDare(app: FastifyInstance, adminToken: string): Promise<void> {
  const current = (await app.inject({ method: 'GET', url: '/api/major-dare' })).json();
  if (!current.isActive || current.status !== 'active') return;
  const ended = await app.inject({
    method: 'PATCH',
    url: `/api/admin/dares/${current.id}/status`,
    headers: bearer(adminToken),
    payload: { status: 'cancelled' },
  });
  expect(ended.statusCode, ended.body).toBe(200);
}
