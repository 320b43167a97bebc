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
import { solToLamports } from '#contract/money';
import type { ChainPort } from '#server/chain/port';
import { transferWithReference } from '#server/chain/transfers';
import { bearer, type TestWallet } from './wallet';

export interface PaidStake {
  escrow: string;
  reference: string;
  signature: string;
}

const post = (app: FastifyInstance, url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: token ? bearer(token) : {} });

/** Test SOL through the API, as the 'Get test SOL' button does. */
export async function airdrop(app: FastifyInstance, wallet: TestWallet, sol: string): Promise<void> {
  const res = await post(app, '/api/dev/airdrop', { walletAddress: wallet.address, amount: sol });
  if (res.statusCode !== 200) throw new Error(`airdrop failed: ${res.body}`);
}

/** What the wallet does with the server's unsigned transaction: sign it with the user's key. */
export async function signBase64(wallet: TestWallet, base64: string): Promise<string> {
  const tx = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  return getBase64EncodedWireTransaction(await signTransaction([wallet.keys], tx));
}

/** Steps 3 to 6 of the create dare flow over HTTP: escrow, build, sign, send. */
export async function payStake(
  app: FastifyInstance,
  token: string,
  wallet: TestWallet,
  amount: string,
): Promise<PaidStake> {
  const escrowRes = await post(app, '/api/create-escrow-wallet', undefined, token);
  if (escrowRes.statusCode !== 200) throw new Error(`escrow failed: ${escrowRes.body}`);
  const escrow = escrowRes.json().publicKey as string;
  const paid = await payTo(app, token, wallet, escrow, amount);
  return { escrow, ...paid };
}

/** Build, sign and send a transfer to an escrow (a stake or a contribution). */
export async function payTo(
  app: FastifyInstance,
  token: string,
  wallet: TestWallet,
  escrow: string,
  amount: string,
): Promise<{ reference: string; signature: string }> {
  const built = await post(
    app,
    '/api/create-transaction',
    { fromWallet: wallet.address, toWallet: escrow, amount },
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
    deadline: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
    userWallet: wallet.address,
    transactionSignature: paid.signature,
    network: 'localnet',
    escrowWalletAddress: paid.escrow,
    ...overrides,
  };
}

/**
 * A transfer the wallet builds and signs itself (not prepared by the server), as base64 wire
 * bytes: how a client would try to pay with a transaction the server did not prepare.
 */
export async function signedOwnTransfer(
  chain: ChainPort,
  wallet: TestWallet,
  options: { to: string; sol: string; reference?: string },
): Promise<string> {
  const { value: blockhash } = await chain.rpc.getLatestBlockhash().send();
  const from = address(wallet.address);
  const lamports = solToLamports(options.sol);
  const instruction = options.reference
    ? transferWithReference(from, address(options.to), lamports, address(options.reference))
    : getTransferSolInstruction({
        source: createNoopSigner(from),
        destination: address(options.to),
        amount: lamports,
      });
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstruction(instruction, m),
  );
  const signed = await signTransaction([wallet.keys], compileTransaction(message));
  return getBase64EncodedWireTransaction(signed);
}

/** Sends such a transfer straight to the chain, bypassing the server's relay. */
export async function sendOwnTransfer(
  chain: ChainPort,
  wallet: TestWallet,
  options: { to: string; sol: string; reference?: string; skipPreflight?: boolean },
): Promise<string> {
  const wire = await signedOwnTransfer(chain, wallet, options);
  return chain.rpc
    .sendTransaction(wire as Base64EncodedWireTransaction, {
      encoding: 'base64',
      skipPreflight: options.skipPreflight ?? false,
    })
    .send();
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
