/**
 * Judging on escrow v2 in API tests: v2 dares made on the chain directly (the vault creation
 * through the app is another change's), judges' accounts holding the judge keys, and the wallet
 * side of a propose (sign it, send it as the mark-winner body).
 */
import path from 'node:path';
import {
  type Address,
  appendTransactionMessageInstructions,
  createSignerFromKeyPair,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from '@solana/kit';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { lamportsToSol, solToLamports } from '#contract/money';
import { waitForConfirmation } from '#server/chain/confirmation';
import { readKeypairFile } from '#server/chain/escrow-program/keypair-file';
import {
  type DareKind,
  fetchVaultV2,
  findVaultAddress,
  getCreateVaultV2Instruction,
  getEnterV2Instruction,
} from '#server/chain/escrow-program/v2';
import { createDare } from '#server/db/factories';
import { dareSubmissions, dareWallets } from '#server/db/schema';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';
import { DEMO_ADMIN_WALLET_FILE } from '#server/judging-keys';
import type { TestContext } from './app';
import { chainNow, warpChain } from './chain-clock';
import { walletSigns } from './entries';
import { airdrop } from './money';
import { type Actor, api, submitVideo } from './payouts';
import { registerWithWallet, type TestWallet } from './wallet';

export function walletOfKey(key: KeyPairSigner): TestWallet {
  return {
    address: key.address,
    keys: key.keyPair,
    signBytes: async (bytes) => new Uint8Array(await signBytes(key.keyPair.privateKey, bytes)),
  };
}

/** The demo admin's wallet key: by default the one judge of every new vault in tests. */
export function demoJudgeKey(ctx: TestContext): Promise<KeyPairSigner> {
  return readKeypairFile(path.join(ctx.dataDir, DEMO_ADMIN_WALLET_FILE));
}

/** An admin account whose registered wallet is `key` (a judge when `key` is one of the judges). */
export async function adminWithKey(ctx: TestContext, key: KeyPairSigner, username: string): Promise<Actor> {
  const wallet = walletOfKey(key);
  const { token, user } = await registerWithWallet(ctx.app, wallet, username);
  await airdrop(ctx.app, wallet, '1');
  await setAdminByUsernameOrWallet(ctx.database.db, username, true, new Date());
  return { wallet, token, id: user.id, username };
}

export const signerOf = (wallet: TestWallet): Promise<KeyPairSigner> => createSignerFromKeyPair(wallet.keys);

/** Sends `instructions` paid and signed by `feePayer` (plus any signer inside them) and waits. */
export async function sendInstructions(
  ctx: TestContext,
  feePayer: TransactionSigner,
  instructions: Instruction[],
): Promise<string> {
  const { value: latest } = await ctx.chain.rpc.getLatestBlockhash().send();
  const signed = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    ),
  );
  const signature = await ctx.chain.rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
  return signature;
}

export interface V2Dare {
  id: number;
  vault: Address;
}

/**
 * A dare whose vault is a v2 one with the app's judging terms (judges, threshold of its kind,
 * guardian, window), the creator's stake in it, recorded as the app records a dare and its vault.
 */
export async function createV2Dare(
  ctx: TestContext,
  creator: Actor,
  stake: string,
  options: { kind?: DareKind } = {},
): Promise<V2Dare> {
  const kind = options.kind ?? 'community';
  const dareId = crypto.getRandomValues(new Uint8Array(32));
  const deadline = BigInt(Math.floor((await chainNow(ctx)).getTime() / 1000)) + 7n * 86_400n;
  const vault = (await findVaultAddress(ctx.escrowProgramV2Id, dareId)).address;
  const feePayer = await ctx.escrowKeys.feePayer();
  const creatorSigner = await signerOf(creator.wallet);
  const signature = await sendInstructions(ctx, creatorSigner, [
    await getCreateVaultV2Instruction({
      programId: ctx.escrowProgramV2Id,
      creator: creatorSigner,
      rentPayer: feePayer,
      dareId,
      amount: solToLamports(stake),
      kind,
      deadline,
      refundAfter: deadline + 7n * 86_400n,
      judges: ctx.judging.judges,
      threshold: kind === 'major' ? ctx.judging.majorThreshold : ctx.judging.threshold,
      guardian: ctx.judging.guardian,
      canceller: (await ctx.escrowKeys.moderator()).address,
      payoutWindow: ctx.judging.payoutWindowSeconds,
    }),
  ]);
  const dare = await createDare(ctx.database.db, {
    creatorId: creator.id,
    stakeAmount: stake,
    totalPool: stake,
    isMajor: kind === 'major',
    category: kind === 'major' ? 'Major' : 'creative',
    deadline: new Date(Number(deadline) * 1000),
    escrowWallet: vault,
    transactionSignature: signature,
  });
  await ctx.database.db.insert(dareWallets).values({
    dareId: dare.id,
    publicKey: vault,
    vaultSeed: Buffer.from(dareId).toString('hex'),
    programVersion: 2,
    reservedBy: creator.id,
    status: 'active',
  });
  return { id: dare.id, vault };
}

/** The entrant's wallet enters the v2 vault with a proof fingerprint; an approved submission follows. */
export async function enteredSubmission(ctx: TestContext, entrant: Actor, dare: V2Dare) {
  const signer = await signerOf(entrant.wallet);
  await sendInstructions(ctx, signer, [
    await getEnterV2Instruction({
      programId: ctx.escrowProgramV2Id,
      vault: dare.vault,
      entrant: signer,
      proofHash: crypto.getRandomValues(new Uint8Array(32)),
    }),
  ]);
  const submission = await submitVideo(ctx, entrant, dare.id);
  await ctx.database.db
    .update(dareSubmissions)
    .set({ status: 'approved' })
    .where(eq(dareSubmissions.id, submission.id));
  return submission;
}

/** What a judge's wallet does with the propose: adds its signature, keeps the others. */
export async function judgeSigns(key: KeyPairSigner, base64: string): Promise<string> {
  const transaction = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  return getBase64EncodedWireTransaction(await partiallySignTransaction([key.keyPair], transaction));
}

export async function vaultV2(ctx: TestContext, vault: Address) {
  const found = await fetchVaultV2(ctx.chain.rpc, ctx.escrowProgramV2Id, vault);
  expect(found).not.toBeNull();
  return found!;
}

/** A vault's pool: what execute pays (its balance above its rent). */
export async function potOf(ctx: TestContext, vault: Address): Promise<bigint> {
  const found = await vaultV2(ctx, vault);
  return found.lamports - found.rent;
}

export const sol = (lamports: bigint) => lamportsToSol(lamports);

/**
 * Mark Winner on a judged dare, as the admin panel does: the server builds the propose, the judge's
 * own wallet signs it, the server relays it. Returns the proposal in its window.
 */
export async function nameWinner(
  ctx: TestContext,
  judge: Actor,
  submissionId: number,
  dareId: number,
): Promise<{
  winners: { submissionId: number; walletAddress: string; amount: string }[];
  executesAt: string;
  signature: string;
}> {
  const url = `/api/admin/submissions/${submissionId}/mark-winner`;
  const offered = await api(ctx).post(url, { dareId }, judge.token);
  expect(offered.statusCode, offered.body).toBe(200);
  const signedTransaction = await walletSigns(judge.wallet, offered.json().transaction);
  const relayed = await api(ctx).post(url, { dareId, signedTransaction }, judge.token);
  expect(relayed.statusCode, relayed.body).toBe(200);
  return relayed.json().proposal;
}

/** Moves the chain's clock past the payout window, when anyone may execute a named winner's payout. */
export async function passPayoutWindow(ctx: TestContext): Promise<void> {
  await warpChain(ctx, Number(ctx.judging.payoutWindowSeconds) + 1);
}
