import { randomBytes } from 'node:crypto';
import {
  type Address,
  address,
  type Base64EncodedWireTransaction,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { DAY_MS } from '#contract/time';
import { waitForConfirmation } from '#server/chain/confirmation';
import { fetchEntry, fetchVault } from '#server/chain/escrow-program/accounts';
import { buildCreateVaultV2Transaction } from '#server/chain/escrow-program/app-transactions';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { dares } from '#server/db/schema';
import { buildCreateVaultTransaction } from '#test/support/chain/v1-vaults';
import { programIdsOf, type TestContext, v1ProgramOf } from './app';
import { bearer, type TestWallet } from './wallet';

/** What a test needs of a user: a session and the wallet registered to it. */
export interface Entrant {
  wallet: TestWallet;
  token: string;
}

const post = (ctx: TestContext, url: string, payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: token ? bearer(token) : {},
  });

/** What the wallet does with a server-built transaction: adds its signature, keeps the others. */
export async function walletSigns(wallet: TestWallet, base64: string): Promise<string> {
  const transaction = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  return getBase64EncodedWireTransaction(await partiallySignTransaction([wallet.keys], transaction));
}

/**
 * What an entry takes from the entrant's wallet on the test chain: the entry's rent (a v2 entry's
 * 144 bytes, with the proof's hash; returned when the entry closes) and one signature's fee.
 * /api/config says the same.
 */
export const ENTRY_RENT = 1_893_120n;
export const ENTRY_FEE = 5_000n;
export const ENTRY_COST = ENTRY_RENT + ENTRY_FEE;

/** Gives `wallet` exactly what `entries` entries take, so a test can account for every lamport. */
export async function fundEntries(ctx: TestContext, wallet: string, entries = 1): Promise<void> {
  await ctx.chain.airdrop(address(wallet), ENTRY_COST * BigInt(entries));
}

/**
 * The proof a test enters with when the video does not matter to it (a v1 entry holds none): one
 * link per wallet, since another user's link is refused as a copy (issue 37, item 3).
 */
export function proofUrlFor(user: Entrant): string {
  return `https://videos.example/proof-${user.wallet.address}.mp4`;
}

export function requestEntry(ctx: TestContext, user: Entrant, dareId: number, videoUrl = proofUrlFor(user)) {
  return post(ctx, `/api/dares/${dareId}/enter-transaction`, { videoUrl }, user.token);
}

/** POST enter-transaction, then the wallet signs it: the `signedEntryTransaction` of a submit. */
export async function signedEntry(
  ctx: TestContext,
  user: Entrant,
  dareId: number,
  videoUrl = proofUrlFor(user),
): Promise<string> {
  const res = await requestEntry(ctx, user, dareId, videoUrl);
  if (res.statusCode !== 200) throw new Error(`enter-transaction failed: ${res.body}`);
  return walletSigns(user.wallet, (res.json() as { transaction: string }).transaction);
}

export function postSubmit(ctx: TestContext, user: Entrant, dareId: number, body: object) {
  return post(ctx, `/api/dares/${dareId}/submit`, body, user.token);
}

/** Submit Video as the web does it: the entry signed by the wallet, sent with the proof. */
export async function enterAndSubmit(
  ctx: TestContext,
  user: Entrant & { username?: string },
  dareId: number,
  body: { videoUrl?: string; description?: string } = {},
) {
  const videoUrl = body.videoUrl ?? `https://videos.example/${user.username ?? 'proof'}.mp4`;
  const res = await postSubmit(ctx, user, dareId, {
    videoUrl,
    description: body.description ?? 'My proof',
    signedEntryTransaction: await signedEntry(ctx, user, dareId, videoUrl),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; dareId: number; userId: number };
}

/**
 * The entry account of `wallet` in `vault`, as its program holds it (null when absent): a vault of
 * program v2 (every new dare's) or of v1 (a legacy one, or one made by `ensureVault`).
 */
export async function entryOnChain(ctx: TestContext, vault: string, wallet: string) {
  for (const programId of programIdsOf(ctx)) {
    const at = (await findEntryAddress(programId, address(vault), address(wallet))).address;
    const entry = await fetchEntry(ctx.chain.rpc, programId, at);
    if (entry) return entry;
  }
  return null;
}

/**
 * The entry of `wallet` in `vault` under whichever program owns the vault (a new vault is a v2
 * one; `entryOnChain` reads v1 only), null when absent.
 */
export async function entryInVault(ctx: TestContext, vault: string, wallet: string) {
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  for (const programId of programIdsOf(ctx)) {
    const at = (await findEntryAddress(programId, address(vault), address(wallet))).address;
    const entry = await fetchEntry(ctx.chain.rpc, programs, at);
    if (entry) return entry;
  }
  return null;
}

export async function dareVault(ctx: TestContext, dareId: number): Promise<string | null> {
  const [row] = await ctx.database.db
    .select({ escrowWallet: dares.escrowWallet })
    .from(dares)
    .where(eq(dares.id, dareId));
  return row!.escrowWallet;
}

/**
 * A dare made without the API (a factory row) gets a vault here, for chain states the API cannot
 * make (a vault whose deadline passes in seconds): a program v2 vault with the app's terms
 * (decision 048), created and paid by `creator`'s wallet, the dare's `escrowWallet` and deadline
 * set to the vault's. `version: 1` makes a legacy v1 vault instead (the platform pays the rent).
 * A dare that has its vault already (every dare made through the API) is left as it is.
 */
export async function ensureVault(
  ctx: TestContext,
  creator: { wallet: TestWallet },
  dareId: number,
  options: { deadline?: Date; kind?: 'community' | 'major'; version?: 1 | 2 } = {},
): Promise<Address> {
  const current = await dareVault(ctx, dareId);
  const programs = { v1: ctx.escrowProgramId, v2: ctx.escrowProgramV2Id };
  if (current && (await fetchVault(ctx.chain.rpc, programs, address(current)))) return address(current);
  const [dare] = await ctx.database.db.select().from(dares).where(eq(dares.id, dareId));
  const deadlineAt = options.deadline ?? dare!.deadline ?? new Date(Date.now() + 365 * DAY_MS);
  const deadline = BigInt(Math.floor(deadlineAt.getTime() / 1000));
  const refundAfter = deadline + 7n * 24n * 3600n;
  const kind = options.kind ?? (dare!.isMajor ? 'major' : 'community');
  const moderator = (await ctx.escrowKeys.moderator()).address;
  const built =
    options.version === 1
      ? await buildCreateVaultTransaction(ctx.chain.rpc, {
          programId: v1ProgramOf(ctx),
          creator: address(creator.wallet.address),
          rentPayer: await ctx.escrowKeys.feePayer(),
          dareId: new Uint8Array(randomBytes(32)),
          moderator,
          deadline,
          refundAfter,
          amount: 10_000_000n,
          kind,
        })
      : await buildCreateVaultV2Transaction(ctx.chain.rpc, {
          programId: ctx.escrowProgramV2Id,
          creator: address(creator.wallet.address),
          dareId: new Uint8Array(randomBytes(32)),
          terms: {
            kind,
            deadline,
            refundAfter,
            judges: ctx.judging.judges,
            threshold: kind === 'major' ? ctx.judging.majorThreshold : ctx.judging.threshold,
            guardian: ctx.judging.guardian,
            canceller: moderator,
            payoutWindow: ctx.judging.payoutWindowSeconds,
          },
          amount: 10_000_000n,
        });
  const signed = await walletSigns(creator.wallet, built.base64);
  const signature = await ctx.chain.rpc
    .sendTransaction(signed as Base64EncodedWireTransaction, { encoding: 'base64' })
    .send();
  await waitForConfirmation(ctx.chain.rpc, signature, { commitment: 'confirmed' });
  await ctx.database.db
    .update(dares)
    .set({ escrowWallet: built.vault, deadline: new Date(Number(deadline) * 1000) })
    .where(eq(dares.id, dareId));
  return built.vault;
}
