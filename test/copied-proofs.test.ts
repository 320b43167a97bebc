/**
 * Copied proofs (issue 37, item 3): a proof whose fingerprint or link is another user's submission
 * (on any dare) is refused with 409 before an entry is built or relayed, and the admin's review
 * names the earlier submission a fingerprint matches.
 */
import { createHash } from 'node:crypto';
import type { Address } from '@solana/kit';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_MESSAGES } from '#contract/submissions';
import { dareSubmissions } from '#server/db/schema';
import { entryOnChain, postSubmit, requestEntry, walletSigns } from './helpers/entries';
import { createV2Dare, deployEscrowV2 } from './helpers/escrow-v2';
import type { Actor } from './helpers/payouts';
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

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function mp4(size: number, fill: number): Buffer {
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

async function submit(as: Actor, dareId: number, videoUrl: string) {
  const entry = await requestEntry(ctx, as, dareId, videoUrl);
  expect(entry.statusCode, entry.body).toBe(200);
  return postSubmit(ctx, as, dareId, {
    videoUrl,
    description: 'My proof',
    signedEntryTransaction: await walletSigns(as.wallet, entry.json().transaction),
  });
}

const rowsOf = (dareId: number, userId: number) =>
  ctx.database.db.$count(
    dareSubmissions,
    and(eq(dareSubmissions.dareId, dareId), eq(dareSubmissions.userId, userId)),
  );

let first: { id: number; vault: Address };
let second: { id: number; vault: Address };

beforeAll(async () => {
  const programId = await deployEscrowV2(ctx);
  first = await createV2Dare(ctx, programId, owner);
  second = await createV2Dare(ctx, programId, owner);
});

describe('a copied proof', () => {
  const video = mp4(6000, 0x71);
  let original: number;

  it('is refused when its file is another user’s proof on another dare, before any entry is built or sent', async () => {
    const own = await submit(alice, first.id, await upload(alice, first.id, video));
    expect(own.statusCode, own.body).toBe(201);
    original = own.json().id;

    const copy = await upload(bob, second.id, video);
    const entry = await requestEntry(ctx, bob, second.id, copy);
    expect([entry.statusCode, entry.json().error]).toEqual([409, SUBMISSION_MESSAGES.copiedProof]);
    // Even with an entry signed for another video, the copy is refused before anything is relayed.
    const other = await requestEntry(ctx, bob, second.id, 'https://videos.example/bob-own.mp4');
    const refused = await postSubmit(ctx, bob, second.id, {
      videoUrl: copy,
      description: 'Not mine',
      signedEntryTransaction: await walletSigns(bob.wallet, other.json().transaction),
    });
    expect([refused.statusCode, refused.json().error]).toEqual([409, SUBMISSION_MESSAGES.copiedProof]);
    expect(await rowsOf(second.id, bob.id)).toBe(0);
    expect(await entryOnChain(ctx, second.vault, bob.wallet.address)).toBeNull();
  });

  it('is refused when its link is another user’s proof', async () => {
    const link = 'https://videos.example/dave-jump.mp4';
    expect((await submit(dave, first.id, link)).statusCode).toBe(201);
    const entry = await requestEntry(ctx, carol, second.id, link);
    expect([entry.statusCode, entry.json().error]).toEqual([409, SUBMISSION_MESSAGES.copiedProof]);
    expect(await rowsOf(second.id, carol.id)).toBe(0);
  });

  it('is shown to the admin: the review names the earlier submission a fingerprint matches', async () => {
    // The same user's own file on another dare is not refused, but the admin still sees the match.
    const again = await submit(alice, second.id, await upload(alice, second.id, video));
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().proofHash).toBe(sha256(video));
    const review = async (dareId: number) =>
      (await http.get(`/api/admin/submissions?dareId=${dareId}`, judge.token)).json() as {
        id: number;
        fingerprintSeen: unknown;
      }[];
    const [later] = (await review(second.id)).filter((s) => s.id === again.json().id);
    expect(later!.fingerprintSeen).toEqual({
      submissionId: original,
      dareId: first.id,
      dareTitle: expect.any(String),
      username: expect.any(String),
    });
    const [earliest] = (await review(first.id)).filter((s) => s.id === original);
    expect(earliest!.fingerprintSeen).toBeNull();
  });
});
