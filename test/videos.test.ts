import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_LIMITS } from '../src/contract/submissions';
import { dareSubmissions } from '../src/server/db/schema';
import { createTestContext, type TestContext } from './helpers/app';
import { type Actor, api, createFundedDare, newActor } from './helpers/payouts';
import { bearer } from './helpers/wallet';

let ctx: TestContext;
let user: Actor;
let dareId: number;

beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  user = await newActor(ctx, 'filmer');
  dareId = (await createFundedDare(ctx, user, '0.1')).id;
});
afterAll(() => ctx.close());

/** An MP4 header ('ftyp' box) followed by filler up to `size` bytes. */
function mp4(size: number): Buffer {
  const file = Buffer.alloc(size, 0x61);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(file);
  return file;
}

async function upload(
  content: Buffer,
  options: { name?: string; type?: string; token?: string | null } = {},
) {
  const form = new FormData();
  form.append('dareId', String(dareId));
  form.append(
    'video',
    new Blob([new Uint8Array(content)], { type: options.type ?? 'video/mp4' }),
    options.name ?? 'proof.mp4',
  );
  const request = new Request('http://localhost/api/upload-video', { method: 'POST', body: form });
  const token = options.token === undefined ? user.token : options.token;
  return ctx.app.inject({
    method: 'POST',
    url: '/api/upload-video',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, ...(token ? bearer(token) : {}) },
  });
}

const storedFiles = () => {
  try {
    return readdirSync(ctx.config.storage.videoDir).length;
  } catch {
    return 0;
  }
};

describe('POST /api/upload-video', () => {
  it('accepts exactly 10 MB and refuses one byte more, keeping nothing', async () => {
    const ok = await upload(mp4(SUBMISSION_LIMITS.videoMaxBytes));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().url).toMatch(/^\/uploads\/videos\/[a-f0-9]{32}$/);
    const files = storedFiles();
    const tooBig = await upload(mp4(SUBMISSION_LIMITS.videoMaxBytes + 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({
      error: 'Video file must be under 10MB',
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(storedFiles()).toBe(files);
  });

  it('sniffs the type from the bytes: a renamed text file is refused', async () => {
    const files = storedFiles();
    const text = await upload(Buffer.from('just some text, not a video at all'), { name: 'clip.mp4' });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(storedFiles()).toBe(files);
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(100, 1)]);
    const ok = await upload(webm, { name: 'clip.txt', type: 'text/plain' });
    expect(ok.statusCode, ok.body).toBe(200);
    const served = await ctx.app.inject({ url: ok.json().url });
    expect(served.headers['content-type']).toBe('video/webm');
  });

  it('needs a session', async () => {
    const res = await upload(mp4(100), { token: null });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/video-proxy/{submissionId}', () => {
  it('streams an uploaded video with ranges, and redirects only to https elsewhere', async () => {
    const content = mp4(1000);
    const { url } = (await upload(content)).json();
    const submitted = await api(ctx).post(
      `/api/dares/${dareId}/submit`,
      { videoUrl: url, description: 'Mine' },
      user.token,
    );
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json().id;

    const whole = await ctx.app.inject({ url: `/api/video-proxy/${id}` });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-length': '1000',
    });
    expect(whole.rawPayload.equals(content)).toBe(true);

    const part = await ctx.app.inject({ url: `/api/video-proxy/${id}`, headers: { range: 'bytes=4-11' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 4-11/1000');
    expect(part.body).toBe('ftypisom');
    const tail = await ctx.app.inject({ url: `/api/video-proxy/${id}`, headers: { range: 'bytes=-10' } });
    expect([tail.statusCode, tail.headers['content-range']]).toEqual([206, 'bytes 990-999/1000']);
    const outside = await ctx.app.inject({
      url: `/api/video-proxy/${id}`,
      headers: { range: 'bytes=5000-' },
    });
    expect([outside.statusCode, outside.headers['content-range']]).toEqual([416, 'bytes */1000']);

    await ctx.database.db
      .update(dareSubmissions)
      .set({ videoUrl: 'https://cdn.example/v.mp4' })
      .where(eq(dareSubmissions.id, id));
    const external = await ctx.app.inject({ url: `/api/video-proxy/${id}` });
    expect([external.statusCode, external.headers.location]).toEqual([302, 'https://cdn.example/v.mp4']);
    await ctx.database.db
      .update(dareSubmissions)
      .set({ videoUrl: 'http://cdn.example/v.mp4' })
      .where(eq(dareSubmissions.id, id));
    expect((await ctx.app.inject({ url: `/api/video-proxy/${id}` })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/api/video-proxy/999999' })).statusCode).toBe(404);
  });
});
