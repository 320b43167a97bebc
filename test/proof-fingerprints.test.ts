/**
 * Proof fingerprints (docs/decisions/038-proof-fingerprints.md): an upload is hashed as it is
 * stored; `enter-transaction {videoUrl}` builds no entry on a v1 vault (409: v1 takes no new SOL) and, on a v2
 * vault, an entry carrying the proof's SHA-256; submit records a proof only when the entry holds
 * its fingerprint; `proofMatches` follows the stored bytes (re-hashed on approval and by the job).
 */
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Address,
  address,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { SUBMISSION_MESSAGES, UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import { findEntryAddress } from '#server/chain/escrow-program/pda';
import { fetchEntryV2 } from '#server/chain/escrow-program/v2/accounts';
import { createDare } from '#server/db/factories';
import { dareSubmissions, preparedTransactions, videoUploads } from '#server/db/schema';
import { ensureVault, entryOnChain, postSubmit, requestEntry, walletSigns } from './helpers/entries';
import { createV2Dare, deployEscrowV2, sendSigned } from './helpers/escrow-v2';
import { type Actor, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { bearer } from './helpers/wallet';

const {
  ctx,
  http,
  actors: { owner, judge, alice, bob, carol, dave },
} = setupApiSuite({
  env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' },
  actors: {
    owner: {},
    judge: { admin: true },
    alice: { sol: '1' },
    bob: { sol: '1' },
    carol: { sol: '1' },
    dave: { sol: '1' },
  },
});

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function mp4(size: number, fill = 0x61): Buffer {
  const file = Buffer.alloc(size, fill);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

async function upload(as: Actor, dareId: number, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('dareId', String(dareId));
  form.append('video', new Blob([new Uint8Array(content)], { type: 'video/mp4' }), 'proof.mp4');
  const request = new Request('http://localhost/api/upload-video', { method: 'POST', body: form });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/upload-video',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(as.token) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { url: string }).url;
}

/** The one instruction of an enter transaction: its program, and the data it carries. */
function enterInstruction(base64: string) {
  const transaction = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  // A v0 message (what the server builds): its instructions name their program by index.
  const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as unknown as {
    staticAccounts: Address[];
    instructions: { programAddressIndex: number; data?: Uint8Array }[];
  };
  const enter = message.instructions.find(
    (instruction) =>
      ![MEMO, COMPUTE_BUDGET].includes(message.staticAccounts[instruction.programAddressIndex]!),
  )!;
  return {
    signers: Object.keys(transaction.signatures),
    programId: message.staticAccounts[enter.programAddressIndex]!,
    data: Buffer.from(enter.data ?? new Uint8Array()),
  };
}
const MEMO = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
/** The compute-unit limit and price lead every transaction the server builds (decision 068). */
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';

async function entryV2(programId: Address, vault: Address, wallet: string) {
  const at = (await findEntryAddress(programId, vault, address(wallet))).address;
  return fetchEntryV2(ctx.chain.rpc, programId, at);
}

const submissionRow = async (dareId: number, userId: number) =>
  (await ctx.database.db.select().from(dareSubmissions).where(eq(dareSubmissions.dareId, dareId))).find(
    (row) => row.userId === userId,
  );

let v2ProgramId: Address;
let v2Dare: { id: number; vault: Address };

beforeAll(async () => {
  v2ProgramId = await deployEscrowV2(ctx);
  v2Dare = await createV2Dare(ctx, v2ProgramId, owner);
});

describe('the fingerprint of an upload', () => {
  it('is the SHA-256 of the stored file, computed as it was received', async () => {
    const content = mp4(300_000, 0x62);
    const url = await upload(alice, v2Dare.id, content);
    const key = url.slice(UPLOADED_VIDEO_PREFIX.length);
    const [row] = await ctx.database.db.select().from(videoUploads).where(eq(videoUploads.key, key));
    expect(row!.sha256).toBe(sha256(content));
    // The very bytes on disk.
    const stored = readdirSync(ctx.config.storage.videoDir).find((name) => name === key);
    expect(stored).toBe(key);
  });
});

describe('POST /api/dares/{id}/enter-transaction {videoUrl}', () => {
  it('requires the video, and only the caller’s own upload', async () => {
    const missing = await http.post(`/api/dares/${v2Dare.id}/enter-transaction`, {}, bob.token);
    expect(missing.statusCode).toBe(400);
    const aliceUpload = await upload(alice, v2Dare.id, mp4(1000, 0x63));
    const borrowed = await requestEntry(ctx, bob, v2Dare.id, aliceUpload);
    expect([borrowed.statusCode, borrowed.json().error]).toEqual([400, SUBMISSION_MESSAGES.ownUpload]);
  });

  it('on a v1 vault, builds no entry: v1 takes no new SOL (409 saying why, decision 048)', async () => {
    // A vault of program v1 (dares made before v2 keep theirs until they are refunded).
    const row = await createDare(ctx.database.db, { creatorId: owner.id, escrowWallet: null });
    const dare = { id: row.id, vault: await ensureVault(ctx, owner, row.id, { version: 1 }) };
    const prepared = (await ctx.database.db.select().from(preparedTransactions)).length;
    const refused = await requestEntry(ctx, bob, dare.id, 'https://videos.example/a.mp4');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ error: PAYMENT_MESSAGES.v1Retired, foreignTerm: 'program' });
    expect((await ctx.database.db.select().from(preparedTransactions)).length).toBe(prepared);
    expect(await entryOnChain(ctx, dare.vault, bob.wallet.address)).toBeNull();
  });

  it('on a v2 vault, carries the proof’s SHA-256; the same video gets the same transaction, another a new one', async () => {
    const content = mp4(5000, 0x64);
    const url = await upload(carol, v2Dare.id, content);
    const res = await requestEntry(ctx, carol, v2Dare.id, url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { transaction: string; entry: string };
    const enter = enterInstruction(body.transaction);
    // v2's program (the vault's owner), the entrant the only signer and fee payer: nothing of DarePool signs.
    expect(enter.programId).toBe(v2ProgramId);
    expect(enter.signers).toEqual([carol.wallet.address]);
    // Tag 2 (enter), the entry's bump, then the 32-byte fingerprint of the file's bytes.
    expect(enter.data[0]).toBe(2);
    expect(enter.data.subarray(2).toString('hex')).toBe(sha256(content));
    expect(body.entry).toBe(
      (await findEntryAddress(v2ProgramId, v2Dare.vault, address(carol.wallet.address))).address,
    );

    const again = await requestEntry(ctx, carol, v2Dare.id, url);
    expect(again.json().transaction).toBe(body.transaction);

    const link = 'https://videos.example/carol.mp4';
    const forLink = await requestEntry(ctx, carol, v2Dare.id, link);
    expect(forLink.statusCode, forLink.body).toBe(200);
    expect(forLink.json().transaction).not.toBe(body.transaction);
    // A link's fingerprint is its exact URL's, as UTF-8.
    expect(enterInstruction(forLink.json().transaction).data.subarray(2).toString('hex')).toBe(sha256(link));
  });
});

describe('submit on a v2 vault', () => {
  it('records the proof with its fingerprint once the entry holds it', async () => {
    const content = mp4(8000, 0x65);
    const url = await upload(dave, v2Dare.id, content);
    const { transaction } = (await requestEntry(ctx, dave, v2Dare.id, url)).json();
    const res = await postSubmit(ctx, dave, v2Dare.id, {
      videoUrl: url,
      description: 'Fingerprinted',
      signedEntryTransaction: await walletSigns(dave.wallet, transaction),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect([res.json().proofHash, res.json().proofMatches]).toEqual([sha256(content), true]);
    const entry = await entryV2(v2ProgramId, v2Dare.vault, dave.wallet.address);
    expect(Buffer.from(entry!.proofHash).toString('hex')).toBe(sha256(content));
    // Every shape answers it: the dare's list and the admin's.
    const listed = (await http.get(`/api/submissions/${v2Dare.id}`, dave.token)).json() as {
      id: number;
      proofHash: string;
    }[];
    expect(listed.find((s) => s.id === res.json().id)?.proofHash).toBe(sha256(content));
    const admin = (await http.get(`/api/admin/submissions?dareId=${v2Dare.id}`, judge.token)).json() as {
      id: number;
      proofHash: string;
      proofMatches: boolean;
    }[];
    expect(admin.find((s) => s.id === res.json().id)).toMatchObject({
      proofHash: sha256(content),
      proofMatches: true,
    });
  });

  it('refuses a signed entry prepared for another video before sending it: no entry, nothing recorded', async () => {
    const eve = await newEntrant('eve_v2');
    const url = await upload(eve, v2Dare.id, mp4(2000, 0x66));
    const forUpload = (await requestEntry(ctx, eve, v2Dare.id, url)).json().transaction as string;
    // Asked again for a link: that one is now the prepared entry.
    const link = 'https://videos.example/eve.mp4';
    const forLink = (await requestEntry(ctx, eve, v2Dare.id, link)).json().transaction as string;

    const stale = await postSubmit(ctx, eve, v2Dare.id, {
      videoUrl: url,
      description: 'Old entry',
      signedEntryTransaction: await walletSigns(eve.wallet, forUpload),
    });
    expect([stale.statusCode, stale.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryForOtherVideo]);
    // The link's entry sent with the upload's video: refused the same way.
    const swapped = await postSubmit(ctx, eve, v2Dare.id, {
      videoUrl: url,
      description: 'Swapped',
      signedEntryTransaction: await walletSigns(eve.wallet, forLink),
    });
    expect([swapped.statusCode, swapped.json().error]).toEqual([400, SUBMISSION_MESSAGES.entryForOtherVideo]);
    expect(await entryV2(v2ProgramId, v2Dare.vault, eve.wallet.address)).toBeNull();
    expect(await submissionRow(v2Dare.id, eve.id)).toBeUndefined();

    const ok = await postSubmit(ctx, eve, v2Dare.id, {
      videoUrl: link,
      description: 'The link',
      signedEntryTransaction: await walletSigns(eve.wallet, forLink),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    // A link's bytes are not ours: its fingerprint is shown, never said to match.
    expect([ok.json().proofHash, ok.json().proofMatches]).toEqual([sha256(link), null]);
  });

  it('refuses another video than the one the entry on chain holds, and takes that one', async () => {
    const frank = await newEntrant('frank_v2');
    const content = mp4(3000, 0x67);
    const first = await upload(frank, v2Dare.id, content);
    const { transaction } = (await requestEntry(ctx, frank, v2Dare.id, first)).json();
    // The wallet broadcasts its entry itself: the entry now holds the first video's fingerprint.
    await sendSigned(ctx, await walletSigns(frank.wallet, transaction));

    const other = await postSubmit(ctx, frank, v2Dare.id, {
      videoUrl: 'https://videos.example/frank-other.mp4',
      description: 'Another video',
    });
    expect([other.statusCode, other.json().error]).toEqual([
      400,
      SUBMISSION_MESSAGES.entrySignedForOtherVideo,
    ]);
    expect(await submissionRow(v2Dare.id, frank.id)).toBeUndefined();

    // The same file uploaded again (a new key, the same bytes) is the video the entry holds.
    const again = await upload(frank, v2Dare.id, content);
    expect(again).not.toBe(first);
    const ok = await postSubmit(ctx, frank, v2Dare.id, { videoUrl: again, description: 'That video' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().proofHash).toBe(sha256(content));
  });
});

describe('proofMatches', () => {
  it('turns false when the stored bytes change (re-hashed on approval) and true again when the job re-checks them restored', async () => {
    const grace = await newEntrant('grace_v2');
    const content = mp4(4000, 0x68);
    const url = await upload(grace, v2Dare.id, content);
    const { transaction } = (await requestEntry(ctx, grace, v2Dare.id, url)).json();
    const submitted = await postSubmit(ctx, grace, v2Dare.id, {
      videoUrl: url,
      description: 'Will be tampered with',
      signedEntryTransaction: await walletSigns(grace.wallet, transaction),
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json().id as number;

    // Someone with access to the storage swaps the file's bytes (same size).
    const file = path.join(ctx.config.storage.videoDir, url.slice(UPLOADED_VIDEO_PREFIX.length));
    writeFileSync(file, mp4(4000, 0x69));
    // Page views do not re-hash: still the last check's answer.
    expect(await publicProof(id, grace.token)).toEqual({ proofHash: sha256(content), proofMatches: true });

    const approved = await http.put(`/api/admin/submissions/${id}`, { status: 'approved' }, judge.token);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ proofHash: sha256(content), proofMatches: false });
    expect(await publicProof(id)).toEqual({ proofHash: sha256(content), proofMatches: false });

    // Restored: the clean-up job re-checks it once its last check is a day old.
    writeFileSync(file, content);
    await ctx.app.videoCleanupJob.runNow();
    expect((await publicProof(id))?.proofMatches).toBe(false);
    ctx.clock.advance(25 * 3600_000);
    await ctx.app.videoCleanupJob.runNow();
    expect(await publicProof(id)).toEqual({ proofHash: sha256(content), proofMatches: true });
    const [row] = await ctx.database.db.select().from(dareSubmissions).where(eq(dareSubmissions.id, id));
    expect(row!.proofCheckedAt?.getTime()).toBe(ctx.clock.now.getTime());
  });
});

async function publicProof(id: number, token?: string) {
  const list = (await http.get(`/api/submissions/${v2Dare.id}`, token)).json() as {
    id: number;
    proofHash: string | null;
    proofMatches: boolean | null;
  }[];
  const found = list.find((submission) => submission.id === id);
  return found && { proofHash: found.proofHash, proofMatches: found.proofMatches };
}

const newEntrant = (username: string) => newActor(ctx, username, { sol: '1' });
