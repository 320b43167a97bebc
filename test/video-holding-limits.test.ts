import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { videoUploads } from '#server/db/schema';
import { signedEntry } from './helpers/entries';
import { type Actor, api, createFundedDare, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';
import { bearer } from './helpers/wallet';

/**
 * Free accounts cannot fill the video storage: what one account, and one client address over all
 * its accounts, hold in videos not approved (pending uploads, proofs waiting for review, rejected
 * ones) is limited, checked before any byte is stored and again when the upload is recorded
 * (docs/decisions/061-uploads-evicted-and-held.md).
 */
const KB = 1024;
const {
  ctx,
  actors: { darer, admin },
} = setupApiSuite({
  env: {
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // 512 KiB per account, 1 MiB per address; the cap itself (4 MiB) would hold a dozen of these.
    VIDEO_UNAPPROVED_PER_ACCOUNT_MB: '0.5',
    VIDEO_UNAPPROVED_PER_ADDRESS_MB: '1',
    VIDEO_STORAGE_MAX_GB: String(4 / 1024),
  },
  actors: { darer: {}, admin: { admin: true } },
});
const dareIds: number[] = [];

beforeAll(async () => {
  for (let i = 0; i < 3; i++) dareIds.push((await createFundedDare(ctx, darer, '0.1')).id);
});

function mp4(size: number): Buffer {
  const file = Buffer.alloc(size, 0x61);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

/** A 300 KB upload for `dare` by `as`, from the client address `from`. */
async function upload(as: Actor, dare: number, from: string) {
  const form = new FormData();
  form.append('dareId', String(dare));
  form.append('video', new Blob([new Uint8Array(mp4(300 * KB))], { type: 'video/mp4' }), 'proof.mp4');
  const request = new Request('http://localhost/api/upload-video', { method: 'POST', body: form });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/upload-video',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(as.token) },
    remoteAddress: from,
  });
}

const storedFiles = () => {
  try {
    return readdirSync(ctx.config.storage.videoDir).filter((name) => !name.endsWith('.json')).length;
  } catch {
    return 0;
  }
};

const uploadsOf = async (actor: Actor) =>
  ctx.database.db.select().from(videoUploads).where(eq(videoUploads.userId, actor.id));

describe('videos not approved, per account and per address', () => {
  let first: Actor;
  let firstSubmissionId: number;

  it("counts an account's submitted proofs: past its limit an upload is refused before anything is stored", async () => {
    first = await newActor(ctx, 'free1', { sol: '1' });
    const proof = await upload(first, dareIds[0]!, '10.40.0.1');
    expect(proof.statusCode, proof.body).toBe(200);
    const url = proof.json().url as string;
    const submitted = await api(ctx).post(
      `/api/dares/${dareIds[0]}/submit`,
      {
        videoUrl: url,
        description: 'Proof',
        signedEntryTransaction: await signedEntry(ctx, first, dareIds[0]!, url),
      },
      first.token,
    );
    expect(submitted.statusCode, submitted.body).toBe(201);
    firstSubmissionId = submitted.json().id;

    const files = storedFiles();
    const refused = await upload(first, dareIds[1]!, '10.40.0.1');
    expect([refused.statusCode, refused.json()]).toEqual([
      507,
      { error: SUBMISSION_MESSAGES.accountHoldsTooMuch, code: 'INSUFFICIENT_STORAGE' },
    ]);
    expect(storedFiles()).toBe(files);
    expect(await uploadsOf(first)).toHaveLength(1);
  });

  it('counts every account of one address together; other addresses go on uploading', async () => {
    const second = await newActor(ctx, 'free2', { sol: '0' });
    const third = await newActor(ctx, 'free3', { sol: '0' });
    const fourth = await newActor(ctx, 'free4', { sol: '0' });
    for (const actor of [second, third])
      expect((await upload(actor, dareIds[0]!, '10.40.0.1')).statusCode).toBe(200);
    // Uploading again for the same dare replaces the pending upload: it is not counted twice.
    expect((await upload(second, dareIds[0]!, '10.40.0.1')).statusCode).toBe(200);
    expect(await uploadsOf(second)).toHaveLength(1);

    // 900 KB from 10.40.0.1 (one proof, two pending uploads): a fourth 300 KB would pass 1 MiB.
    const files = storedFiles();
    const refused = await upload(fourth, dareIds[0]!, '10.40.0.1');
    expect([refused.statusCode, refused.json().error]).toEqual([
      507,
      SUBMISSION_MESSAGES.addressHoldsTooMuch,
    ]);
    expect(storedFiles()).toBe(files);
    expect((await upload(fourth, dareIds[0]!, '10.41.0.1')).statusCode).toBe(200);
  });

  it('an approved proof no longer counts', async () => {
    const approved = await api(ctx).put(
      `/api/admin/submissions/${firstSubmissionId}`,
      { status: 'approved' },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await upload(first, dareIds[1]!, '10.40.0.1')).statusCode).toBe(200);
  });

  it('parallel uploads from one account are recorded within its limit: the others are refused and deleted', async () => {
    const burst = await newActor(ctx, 'burst', { sol: '0' });
    const files = storedFiles();
    const answers = await Promise.all(dareIds.map((dare) => upload(burst, dare, '10.42.0.1')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 507, 507]);
    expect(await uploadsOf(burst)).toHaveLength(1);
    expect(storedFiles()).toBe(files + 1);
  });
});
