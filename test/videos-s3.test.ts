import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_LIMITS } from '#contract/limits';
import { dareSubmissions } from '#server/db/schema';
import { startTestS3Server, type TestS3Server } from '#test/support/storage/s3-server';
import { createTestContext, type TestContext } from './helpers/app';
import { signedEntry } from './helpers/entries';
import { type Actor, api, createFundedDare, newActor } from './helpers/payouts';
import { bearer } from './helpers/wallet';

const MiB = 1024 * 1024;
const PREFIX = 'videos/';

let s3: TestS3Server;
let ctx: TestContext;
let user: Actor;
let dareId: number;

beforeAll(async () => {
  s3 = await startTestS3Server();
  ctx = await createTestContext({
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // About 10.7 MB: a 6 MiB video fits, a second one of 5 MiB does not.
    VIDEO_STORAGE_MAX_GB: '0.01',
    ...s3.env(PREFIX),
  });
  user = await newActor(ctx, 'cloudfilmer');
  dareId = (await createFundedDare(ctx, user, '0.1')).id;
});
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
});

/** An MP4 header ('ftyp' box) followed by random bytes up to `size`. */
function mp4(size: number): Buffer {
  const file = randomBytes(size);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

async function upload(content: Buffer, as: Actor = user) {
  const form = new FormData();
  form.append('dareId', String(dareId));
  form.append('video', new Blob([new Uint8Array(content)], { type: 'video/mp4' }), 'proof.mp4');
  const request = new Request('http://localhost/api/upload-video', { method: 'POST', body: form });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/upload-video',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(as.token) },
  });
}

const keyOf = (url: string) => url.split('/').at(-1)!;
/**
 * What the upload spool (`DATA_DIR/tmp`) holds: files in it, and files under it this process has
 * open (a spool file is unlinked while in use; Linux's /proc shows it).
 */
function spool(): string[] {
  const dir = ctx.config.storage.tmpDir;
  const open = existsSync('/proc/self/fd')
    ? readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          const target = readlinkSync(`/proc/self/fd/${fd}`);
          return target.startsWith(`${dir}${path.sep}`) ? [`open:${target}`] : [];
        } catch {
          return [];
        }
      })
    : [];
  return [...(existsSync(dir) ? readdirSync(dir) : []), ...open];
}
/** What the bucket holds under the app's prefix: `object:<key>` and unfinished `upload:<key>`. */
const bucket = async () => (await s3.contents(PREFIX)).map((entry) => entry.replace(PREFIX, '')).sort();

describe('VIDEO_STORAGE=s3', () => {
  let attached: string;
  let video: Buffer;

  it('stores an upload in the bucket and plays it with ranges through the video proxy', async () => {
    // Over S3's 5 MiB part size: still one PutObject, from the spool file.
    video = mp4(6 * MiB);
    const author = await newActor(ctx, 'cloudauthor', { sol: '1' });
    const uploaded = await upload(video, author);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    attached = uploaded.json().url;
    expect(await bucket()).toEqual([`object:${keyOf(attached)}`]);
    expect(spool()).toEqual([]);
    const videoDir = ctx.config.storage.videoDir;
    expect(existsSync(videoDir) ? readdirSync(videoDir) : []).toEqual([]);

    const submitted = await api(ctx).post(
      `/api/dares/${dareId}/submit`,
      {
        videoUrl: attached,
        description: 'From the bucket',
        signedEntryTransaction: await signedEntry(ctx, author, dareId, attached),
      },
      author.token,
    );
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json().id as number;
    await ctx.database.db
      .update(dareSubmissions)
      .set({ status: 'approved' })
      .where(eq(dareSubmissions.id, id));

    const head = await ctx.app.inject({ url: `/api/video-proxy/${id}`, headers: { range: 'bytes=4-11' } });
    expect([head.statusCode, head.headers['content-range'], head.body]).toEqual([
      206,
      `bytes 4-11/${video.length}`,
      'ftypisom',
    ]);
    expect(head.headers['content-type']).toBe('video/mp4');
    // Across 5 MiB (where a multipart upload would have cut it).
    const start = 5 * MiB - 100;
    const middle = await ctx.app.inject({
      url: `/api/video-proxy/${id}`,
      headers: { range: `bytes=${start}-${start + 199}` },
    });
    expect(middle.statusCode).toBe(206);
    expect(middle.rawPayload.equals(video.subarray(start, start + 200))).toBe(true);
    const tail = await ctx.app.inject({ url: attached, headers: { range: 'bytes=-1' } });
    expect([tail.statusCode, tail.headers['content-range']]).toEqual([
      206,
      `bytes ${video.length - 1}-${video.length - 1}/${video.length}`,
    ]);
    expect(tail.rawPayload.equals(video.subarray(-1))).toBe(true);
    const whole = await ctx.app.inject({ url: `/api/video-proxy/${id}` });
    expect([whole.statusCode, whole.headers['content-length']]).toEqual([200, String(video.length)]);
    expect(whole.rawPayload.equals(video)).toBe(true);
  });

  it('refuses one byte over 10 MB with 413, leaving nothing in the bucket or the spool', async () => {
    const tooBig = await upload(mp4(SUBMISSION_LIMITS.videoMaxBytes + 1));
    expect([tooBig.statusCode, tooBig.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await bucket()).toEqual([`object:${keyOf(attached)}`]);
    expect(spool()).toEqual([]);
  });

  it('refuses uploads past VIDEO_STORAGE_MAX_GB with 507, leaving nothing in the bucket', async () => {
    const full = await upload(mp4(5 * MiB));
    expect([full.statusCode, full.json().code]).toEqual([507, 'INSUFFICIENT_STORAGE']);
    expect(await bucket()).toEqual([`object:${keyOf(attached)}`]);
    expect(spool()).toEqual([]);
  });

  it('the clean-up job deletes unattached uploads from the bucket after an hour', async () => {
    const unattached = (await upload(mp4(1000))).json().url as string;
    expect(await bucket()).toEqual([`object:${keyOf(attached)}`, `object:${keyOf(unattached)}`].sort());
    ctx.clock.advance(61 * 60_000);
    // The job runs at start.
    await ctx.restart();
    expect(await bucket()).toEqual([`object:${keyOf(attached)}`]);
    // The submitted one stays, and still plays.
    const played = await ctx.app.inject({ url: attached, headers: { range: 'bytes=0-3' } });
    expect([played.statusCode, played.rawPayload.equals(video.subarray(0, 4))]).toEqual([206, true]);
  });
});
