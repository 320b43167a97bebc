import { type Address, address, type Base64EncodedWireTransaction } from '@solana/kit';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { lamportsToSol, solToLamports } from '#contract/money';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { fetchVault } from '#server/chain/escrow-program/accounts';
import { buildCreateVaultV2Transaction } from '#server/chain/escrow-program/app-transactions';
import type { DareKind } from '#server/chain/escrow-program/layout';
import { buildEnterV2Transaction } from '#server/chain/escrow-program/v2/enter-transaction';
import { listVaultRecords } from '#server/chain/escrow-program/vault-records';
import { createDare } from '#server/db/factories';
import { dareSubmissions, dares, dareWallets, poolContributions, submissionVotes } from '#server/db/schema';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { appendLedgerEntry } from '#server/ledger/repo';
import {
  buildCreateVaultTransaction,
  buildDepositV1Transaction,
  buildEnterTransaction,
} from '#test/support/chain/v1-vaults';
import { programIdsOf, type TestContext, v1ProgramOf } from './app';
import { airdrop, dareBody, payStake, payTo, signBase64 } from './money';
import { servicesFor } from './services';
import { bearer, createTestWallet, registerWithWallet, type TestWallet } from './wallet';

/** Shared by the issue 6 API tests (admin, claims, major dare, refunds, leaderboard, profile). */
export interface Actor {
  wallet: TestWallet;
  token: string;
  id: number;
  username: string;
}

export async function newActor(
  ctx: TestContext,
  username: string,
  options: { sol?: string; admin?: boolean; wallet?: TestWallet } = {},
): Promise<Actor> {
  const wallet = options.wallet ?? (await createTestWallet());
  const { token, user } = await registerWithWallet(ctx.app, wallet, username);
  const sol = options.sol ?? '10';
  if (sol !== '0') await airdrop(ctx.app, wallet, sol);
  if (options.admin) await setAdminByUsernameOrWallet(ctx.database.db, username, true, new Date());
  return { wallet, token, id: user.id, username };
}

export function api(ctx: TestContext) {
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    token?: string,
  ) =>
    ctx.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: token ? bearer(token) : {},
    });
  return {
    get: (url: string, token?: string) => call('GET', url, undefined, token),
    post: (url: string, payload: unknown, token?: string) => call('POST', url, payload, token),
    put: (url: string, payload: unknown, token?: string) => call('PUT', url, payload, token),
    patch: (url: string, payload: unknown, token?: string) => call('PATCH', url, payload, token),
    del: (url: string, token?: string) => call('DELETE', url, undefined, token),
  };
}

/** Create dare steps 3 to 7 over HTTP. */
export async function createFundedDare(
  ctx: TestContext,
  user: Actor,
  stake: string,
  overrides: { deadline?: string; [field: string]: unknown } = {},
) {
  // A week ahead of the app's clock (tests move it), unless the test names a deadline.
  const deadline = overrides.deadline ?? new Date(ctx.clock.now.getTime() + 7 * DAY_MS).toISOString();
  const paid = await payStake(ctx.app, user.token, user.wallet, stake, { deadline });
  const body = dareBody(user.wallet, paid, stake, { ...overrides, deadline });
  const res = await api(ctx).post('/api/dares', body, user.token);
  expect(res.statusCode, res.body).toBe(201);
  const dare = res.json() as { id: number; escrowWallet: string; totalPool: string };
  return { ...dare, vault: address(dare.escrowWallet) };
}

export async function contribute(
  ctx: TestContext,
  user: Actor,
  dare: { id: number; escrowWallet: string },
  amount: string,
) {
  const paid = await payTo(ctx.app, user.token, user.wallet, dare.escrowWallet, amount);
  const res = await api(ctx).post(
    `/api/dares/${dare.id}/add-pool`,
    { amount, userWallet: user.wallet.address, transactionSignature: paid.signature },
    user.token,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A submission row as issue 5's submit endpoint writes it (that feature is not this suite's subject). */
export async function submitVideo(ctx: TestContext, user: Actor, dareId: number, description = 'My proof') {
  const [row] = await ctx.database.db
    .insert(dareSubmissions)
    .values({ dareId, userId: user.id, videoUrl: `https://videos.example/${user.username}.mp4`, description })
    .returning();
  return row!;
}

export async function castVote(ctx: TestContext, voter: Actor, submission: { id: number; dareId: number }) {
  await ctx.database.db.transaction(async (tx) => {
    await tx
      .insert(submissionVotes)
      .values({ submissionId: submission.id, userId: voter.id, dareId: submission.dareId });
    await tx
      .update(dareSubmissions)
      .set({ votes: sql`${dareSubmissions.votes} + 1` })
      .where(eq(dareSubmissions.id, submission.id));
  });
}

export async function lamportsOf(ctx: TestContext, wallet: string): Promise<bigint> {
  const { value } = await ctx.chain.rpc.getBalance(address(wallet), { commitment: 'confirmed' }).send();
  return value;
}

export async function expectReconciled(ctx: TestContext) {
  const report = await reconcileEscrows(ctx.database.db, ctx.chain.rpc, programIdsOf(ctx));
  expect(report.differences).toEqual([]);
  return report;
}

/** The payout machinery as the server builds it, on the test clock. */
export function payoutsService(ctx: TestContext, overrides: { chain?: TestContext['chain'] } = {}) {
  return servicesFor(ctx, overrides).payouts;
}

/** The refund job the server runs every minute, driven with the test clock. */
export function refundJob(ctx: TestContext) {
  return servicesFor(ctx).refunds;
}

/** The claims service as the server builds it. */
export function claimsService(ctx: TestContext) {
  return servicesFor(ctx).claims;
}

/** A dare whose money sits in its program vault, made the way payments and dares record one. */
export interface ProgramDare {
  id: number;
  escrowWallet: string;
  vault: Address;
}

async function signAndSend(ctx: TestContext, wallet: TestWallet, base64: string): Promise<string> {
  const signature = await ctx.chain.rpc
    .sendTransaction((await signBase64(wallet, base64)) as Base64EncodedWireTransaction, {
      encoding: 'base64',
    })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { intervalMs: 5, timeoutMs: 10_000 });
  return signature;
}

/** What crediting a payment records: the contribution, the ledger line, the pool and the vault's balance. */
export async function bookCredit(
  ctx: TestContext,
  payment: {
    dareId: number;
    vault: string;
    payer: Actor;
    kind: 'stake' | 'contribution';
    lamports: bigint;
    signature: string;
  },
) {
  const amount = lamportsToSol(payment.lamports);
  const now = ctx.clock.now;
  await ctx.database.db.transaction(async (tx) => {
    await tx.insert(poolContributions).values({
      dareId: payment.dareId,
      userId: payment.payer.id,
      walletAddress: payment.payer.wallet.address,
      kind: payment.kind,
      amount,
      transactionSignature: payment.signature,
    });
    await appendLedgerEntry(tx, {
      kind: payment.kind,
      escrowWallet: payment.vault,
      counterparty: payment.payer.wallet.address,
      direction: 1,
      lamports: payment.lamports,
      signature: payment.signature,
      dareId: payment.dareId,
      userId: payment.payer.id,
      now,
    });
    await tx
      .update(dares)
      .set({ totalPool: sql`${dares.totalPool} + ${amount}` })
      .where(eq(dares.id, payment.dareId));
    await tx
      .update(dareWallets)
      .set({ balance: sql`${dareWallets.balance} + ${amount}` })
      .where(eq(dareWallets.publicKey, payment.vault));
  });
}

let derivationIndex = 1_000_000;

/**
 * A dare created through the program and recorded as step 7 records it, without the HTTP flow:
 * on program v1 (a legacy vault: create_vault signed by the creator's wallet, the platform as rent
 * payer, our moderator), or with `version: 2` as the app makes them now (the creator's wallet pays
 * the rent and signs alone; the configured judges, guardian and window; our moderator cancels).
 */
export async function createProgramDare(
  ctx: TestContext,
  creator: Actor,
  stake: string,
  options: { kind?: DareKind; deadline?: Date; refundAfter?: Date; version?: 1 | 2 } = {},
): Promise<ProgramDare> {
  const deadline = options.deadline ?? new Date(ctx.clock.now.getTime() + 7 * DAY_MS);
  const refundAfter = options.refundAfter ?? new Date(deadline.getTime() + 7 * DAY_MS);
  const lamports = solToLamports(stake);
  const kind = options.kind ?? 'community';
  const dareId = crypto.getRandomValues(new Uint8Array(32));
  const seconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));
  const moderator = (await ctx.escrowKeys.moderator()).address;
  const built =
    options.version === 2
      ? await buildCreateVaultV2Transaction(ctx.chain.rpc, {
          programId: ctx.escrowProgramV2Id,
          creator: address(creator.wallet.address),
          dareId,
          terms: {
            kind,
            deadline: seconds(deadline),
            refundAfter: seconds(refundAfter),
            judges: ctx.judging.judges,
            threshold: kind === 'major' ? ctx.judging.majorThreshold : ctx.judging.threshold,
            guardian: ctx.judging.guardian,
            canceller: moderator,
            payoutWindow: ctx.judging.payoutWindowSeconds,
          },
          amount: lamports,
        })
      : await buildCreateVaultTransaction(ctx.chain.rpc, {
          programId: v1ProgramOf(ctx),
          creator: address(creator.wallet.address),
          rentPayer: await ctx.escrowKeys.feePayer(),
          dareId,
          moderator,
          deadline: seconds(deadline),
          refundAfter: seconds(refundAfter),
          amount: lamports,
          kind,
        });
  const signature = await signAndSend(ctx, creator.wallet, built.base64);
  const isMajor = options.kind === 'major';
  const dare = await createDare(ctx.database.db, {
    creatorId: creator.id,
    stakeAmount: '0',
    totalPool: '0',
    isMajor,
    category: isMajor ? 'Major' : 'creative',
    deadline,
    escrowWallet: built.vault,
    transactionSignature: signature,
  });
  await ctx.database.db.insert(dareWallets).values({
    dareId: dare.id,
    publicKey: built.vault,
    derivationIndex: derivationIndex++,
    reservedBy: creator.id,
    status: 'active',
    programVersion: options.version ?? 1,
  });
  await ctx.database.db.update(dares).set({ stakeAmount: stake }).where(eq(dares.id, dare.id));
  await bookCredit(ctx, {
    dareId: dare.id,
    vault: built.vault,
    payer: creator,
    kind: 'stake',
    lamports,
    signature,
  });
  return { id: dare.id, escrowWallet: built.vault, vault: built.vault };
}

/** A contribution deposited into the vault and credited. */
export async function contributeOnChain(ctx: TestContext, payer: Actor, dare: ProgramDare, amount: string) {
  const lamports = solToLamports(amount);
  const vault = await fetchVault(
    ctx.chain.rpc,
    { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id },
    dare.vault,
  );
  const built = await buildDepositV1Transaction(ctx.chain.rpc, {
    programId: vault?.programId ?? v1ProgramOf(ctx),
    vault: dare.vault,
    payer: address(payer.wallet.address),
    rentPayer: await ctx.escrowKeys.feePayer(),
    amount: lamports,
  });
  const signature = await signAndSend(ctx, payer.wallet, built.base64);
  await bookCredit(ctx, {
    dareId: dare.id,
    vault: dare.vault,
    payer,
    kind: 'contribution',
    lamports,
    signature,
  });
  return signature;
}

/**
 * The entrant's wallet signs and pays `enter` (fee and rent, the rent back when the entry closes),
 * as the submission flow does.
 */
export async function enterOnChain(ctx: TestContext, entrant: Actor, dare: { escrowWallet: string }) {
  const vault = address(dare.escrowWallet);
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  const account = await fetchVault(ctx.chain.rpc, programs, vault);
  // A v2 entry holds its proof's fingerprint: any 32 bytes stand for a proof the test does not show.
  const built =
    account?.version === 2
      ? await buildEnterV2Transaction(ctx.chain.rpc, {
          programId: ctx.escrowProgramV2Id,
          vault,
          entrant: address(entrant.wallet.address),
          proofHash: crypto.getRandomValues(new Uint8Array(32)),
        })
      : await buildEnterTransaction(ctx.chain.rpc, {
          programId: v1ProgramOf(ctx),
          vault,
          entrant: address(entrant.wallet.address),
        });
  return signAndSend(ctx, entrant.wallet, built.base64);
}

/**
 * Every receipt and entry of the vault still on chain, and whether the vault itself is, on either
 * escrow program (a closed vault's records are looked for under both).
 */
export async function vaultOnChain(ctx: TestContext, vault: Address) {
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  const account = await fetchVault(ctx.chain.rpc, programs, vault);
  let receipts = 0;
  let entries = 0;
  for (const programId of account ? [account.programId] : programIdsOf(ctx)) {
    const records = await listVaultRecords(ctx.chain.rpc, programId, vault);
    receipts += records.receipts.length;
    entries += records.entries.length;
  }
  return { vault: account, receipts, entries };
}

/**
 * What the platform's fee payer paid in fees for the transactions naming `vault` (cancel, refunds,
 * closes, proposes, executes: on program v2 each record's end is a transaction of its own).
 */
export async function platformFeesFor(ctx: TestContext, vault: string): Promise<bigint> {
  const platform = (await ctx.escrowKeys.feePayer()).address;
  let total = 0n;
  for (const { signature } of await ctx.chain.rpc.getSignaturesForAddress(address(vault)).send()) {
    const landed = await ctx.chain.rpc
      .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    if (landed?.transaction.message.accountKeys[0] === platform) total += landed.meta!.fee;
  }
  return total;
}
