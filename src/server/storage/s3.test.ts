import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoragePort } from '#test/support/storage/port-contract';
import { startTestS3Server, type TestS3Server } from '#test/support/storage/s3-server';
import { createS3Client, createS3Storage, openS3Storage } from './s3';

const MiB = 1024 * 1024;
let server: TestS3Server;
/** Each test's spool folder is one in here. */
let spoolRoot: string;
beforeAll(async () => {
  server = await startTestS3Server();
  spoolRoot = mkdtempSync(path.join(os.tmpdir(), 'darepool-s3-spool-'));
});
const clients: S3Client[] = [];
afterAll(async () => {
  for (const client of clients) client.destroy();
  await server?.close();
  if (spoolRoot) rmSync(spoolRoot, { recursive: true, force: true });
});

/** Files under `dir` this process has open, from Linux's /proc: spool files are unlinked while in use. */
function openFilesUnder(dir: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${dir}${path.sep}`) ? [target] : [];
    } catch {
      return [];
    }
  });
}

let tests = 0;
/** Each test its own folder in the one bucket and its own spool folder, so what it leaves is its own. */
function storage(options: { listPageSize?: number; bucket?: string } = {}) {
  const prefix = `t${++tests}/`;
  const spoolDir = path.join(spoolRoot, `t${tests}`);
  const client = createS3Client(server.settings(prefix));
  clients.push(client);
  const calls: Record<string, number> = {};
  client.middlewareStack.add(
    (next, context) => (args) => {
      const command = context.commandName ?? '';
      calls[command] = (calls[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize' },
  );
  const store = createS3Storage({
    client,
    bucket: options.bucket ?? server.bucket,
    prefix,
    spoolDir,
    listPageSize: options.listPageSize,
  });
  return {
    prefix,
    spoolDir,
    client,
    store,
    calls: (command: string) => calls[command] ?? 0,
    /** Objects and multipart uploads in the bucket, spool files on disk, spool files still open. */
    leftovers: async () => [
      ...(await server.contents(prefix)),
      ...(existsSync(spoolDir) ? readdirSync(spoolDir) : []).map((name) => `spool file:${name}`),
      ...openFilesUnder(spoolDir).map((file) => `open file:${file}`),
    ],
  };
}

/** `bytes` of data in 64 KiB chunks, then nothing more: a client that stalls. */
function stallingBody(bytes: number) {
  let sent = 0;
  const body = new Readable({
    read() {
      if (sent >= bytes) return;
      sent += 64 * 1024;
      this.push(Buffer.alloc(64 * 1024, 1));
    },
  });
  return Object.assign(body, { sent: () => sent });
}

/** Runs `onPut` when the client sends a PutObject, before the request goes out (`before`) or after its answer. */
function onPutObject(
  client: S3Client,
  when: 'before' | 'after',
  onPut: (request: { body?: unknown }) => void,
) {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'PutObjectCommand') return next(args);
      if (when === 'before') onPut(args.request as { body?: unknown });
      const result = await next(args);
      if (when === 'after') onPut(args.request as { body?: unknown });
      return result;
    },
    { step: 'finalizeRequest' },
  );
}

describeStoragePort('S3 storage', async () => storage());

describe('S3 storage', () => {
  it('serves ranges of a 6 MiB object: first bytes, across 5 MiB, the last byte', async () => {
    const { store, calls } = storage();
    const content = randomBytes(6 * MiB + 123);
    const object = await store.put(Readable.from([content]), 'video/mp4');
    // One request, its length known from the spool file.
    expect(calls('PutObjectCommand')).toBe(1);
    expect(await store.stat(object.key)).toEqual({
      key: object.key,
      size: content.length,
      contentType: 'video/mp4',
    });
    const read = (start: number, end: number) => buffer(store.read(object.key, { start, end }));
    expect((await read(0, 15)).equals(content.subarray(0, 16))).toBe(true);
    expect((await read(5 * MiB - 10, 5 * MiB + 9)).equals(content.subarray(5 * MiB - 10, 5 * MiB + 10))).toBe(
      true,
    );
    const last = content.length - 1;
    expect((await read(last, last)).equals(content.subarray(last))).toBe(true);
    expect((await buffer(store.read(object.key))).equals(content)).toBe(true);
  });

  it('spools an upload to an unlinked file while it arrives: nothing in the folder, nothing sent yet', async () => {
    const { prefix, store, spoolDir, leftovers } = storage();
    const body = stallingBody(3 * MiB);
    const controller = new AbortController();
    const put = store.put(body, 'video/mp4', { signal: controller.signal });
    put.catch(() => {});
    await expect.poll(body.sent, { timeout: 5_000 }).toBe(3 * MiB);
    await expect.poll(() => openFilesUnder(spoolDir).length, { timeout: 5_000 }).toBe(1);
    expect(openFilesUnder(spoolDir)[0]).toMatch(/s3-upload-[a-f0-9]{32}\.part \(deleted\)$/);
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(await server.contents(prefix)).toEqual([]);
    controller.abort(new Error('done looking'));
    await expect(put).rejects.toThrow('done looking');
    expect(await leftovers()).toEqual([]);
  });

  it('an upload aborted halfway leaves no object and no spool file', async () => {
    const { store, leftovers, calls } = storage();
    const body = stallingBody(6 * MiB);
    const controller = new AbortController();
    const put = store.put(body, 'video/mp4', { signal: controller.signal });
    put.catch(() => {});
    await expect.poll(body.sent, { timeout: 5_000 }).toBe(6 * MiB);
    controller.abort(new Error('timed out'));
    await expect(put).rejects.toThrow('timed out');
    expect(body.destroyed).toBe(true);
    expect(calls('PutObjectCommand')).toBe(0);
    expect(await leftovers()).toEqual([]);
  });

  it('a body that fails halfway leaves no object and no spool file', async () => {
    const { store, leftovers } = storage();
    const body = stallingBody(6 * MiB);
    const put = store.put(body, 'video/mp4');
    put.catch(() => {});
    await expect.poll(body.sent, { timeout: 5_000 }).toBe(6 * MiB);
    body.destroy(new Error('client went away'));
    await expect(put).rejects.toThrow('client went away');
    expect(await leftovers()).toEqual([]);
  });

  it('an abort while the PutObject is on its way leaves nothing: the object it stored is deleted', async () => {
    const { client, store, leftovers } = storage();
    const controller = new AbortController();
    // As the request leaves: it is not cancelled (a cancelled request may still complete on the
    // service after our delete); it completes, and the object it stored is deleted.
    onPutObject(client, 'before', () => controller.abort(new Error('timed out')));
    const put = store.put(Readable.from([randomBytes(8 * MiB)]), 'video/mp4', { signal: controller.signal });
    await expect(put).rejects.toThrow('timed out');
    expect(await leftovers()).toEqual([]);
  });

  it('deletes the object when the abort came while its answer was on its way', async () => {
    const { client, store, leftovers } = storage();
    const controller = new AbortController();
    let stored = false;
    onPutObject(client, 'after', () => {
      stored = true;
      controller.abort(new Error('client went away'));
    });
    await expect(
      store.put(Readable.from([Buffer.from('a whole small video')]), 'video/mp4', {
        signal: controller.signal,
      }),
    ).rejects.toThrow('client went away');
    expect(stored).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('deletes an object whose upload was aborted after its last byte was read', async () => {
    const { store, leftovers } = storage();
    const body = Readable.from([Buffer.from('a whole small video')]);
    const controller = new AbortController();
    body.once('end', () => controller.abort(new Error('client went away')));
    await expect(store.put(body, 'video/mp4', { signal: controller.signal })).rejects.toThrow(
      'client went away',
    );
    expect(await leftovers()).toEqual([]);
  });

  it('an error from the bucket fails the upload and leaves no spool file', async () => {
    const { store, leftovers, calls } = storage({ bucket: 'no-such-bucket' });
    await expect(store.put(Readable.from([randomBytes(MiB)]), 'video/mp4')).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
    // Not worth a second attempt.
    expect(calls('PutObjectCommand')).toBe(1);
    expect(await leftovers()).toEqual([]);
  });

  it('sends the spooled bytes again, from the start, after a failure worth retrying', async () => {
    const { client, store, leftovers, calls } = storage();
    let failures = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutObjectCommand' && failures === 0) {
          failures++;
          // Some of the body went out, then the service answered 503.
          const body = (args.request as { body: Readable }).body;
          for await (const chunk of body) if ((chunk as Buffer).length > 0) break;
          throw Object.assign(new Error('Please reduce your request rate.'), {
            name: 'SlowDown',
            $metadata: { httpStatusCode: 503 },
          });
        }
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    const content = randomBytes(3 * MiB);
    const object = await store.put(Readable.from([content]), 'video/mp4');
    expect([failures, calls('PutObjectCommand')]).toEqual([1, 2]);
    expect((await buffer(store.read(object.key))).equals(content)).toBe(true);
    expect((await leftovers()).filter((entry) => !entry.startsWith('object:'))).toEqual([]);
  });

  it('knows no missing key: stat is null, a read fails with NoSuchKey, a remove is a no-op', async () => {
    const { store } = storage();
    const missing = 'b'.repeat(32);
    expect(await store.stat(missing)).toBeNull();
    await expect(text(store.read(missing))).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(store.remove(missing)).resolves.toBeUndefined();
  });

  it('refuses, and deletes, an upload whose content type changed after its first bytes', async () => {
    const { store, leftovers } = storage();
    let type = 'video/mp4';
    let pushed = 0;
    const body = new Readable({
      read() {
        if (pushed++ === 0) return void this.push(Buffer.from('first'));
        // Later than the first chunk, however far the store reads ahead.
        setTimeout(() => {
          type = 'video/webm';
          this.push(Buffer.from('second'));
          this.push(null);
        }, 20);
      },
    });
    await expect(store.put(body, () => type)).rejects.toThrow(/Content type changed/);
    expect(await leftovers()).toEqual([]);
  });

  it('lists every page, only its own keys under its prefix', async () => {
    const { prefix, client, store, calls } = storage({ listPageSize: 2 });
    const listCalls = () => calls('ListObjectsV2Command');
    const keys: string[] = [];
    for (let i = 0; i < 5; i++)
      keys.push((await store.put(Readable.from([Buffer.from(`v${i}`)]), 'video/mp4')).key);
    for (const Key of [`${prefix}notes.txt`, `other/${'c'.repeat(32)}`])
      await client.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: 'not a video' }));
    const before = listCalls();
    const listed = await store.list();
    expect(listed.map(({ key }) => key).sort()).toEqual(keys.sort());
    expect(listed.every(({ size, modifiedAt }) => size === 2 && modifiedAt instanceof Date)).toBe(true);
    // Six objects under the prefix, two per page.
    expect(listCalls() - before).toBe(3);
  });

  it('checks the bucket and credentials before the server starts, with a clear error', async () => {
    const spoolDir = path.join(spoolRoot, 'open');
    await expect(openS3Storage({ ...server.settings(), bucket: 'no-such-bucket' }, spoolDir)).rejects.toThrow(
      /^Video storage s3:\/\/no-such-bucket\/ at http:\/\/127\.0\.0\.1:\d+ cannot be listed \(NoSuchBucket/,
    );
    // s3rver checks the key id, not v4 signatures: a wrong key id stands for wrong credentials.
    const wrongKey = {
      ...server.settings(),
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'nope' },
    };
    await expect(openS3Storage(wrongKey, spoolDir)).rejects.toThrow(/cannot be listed \(InvalidAccessKeyId/);
    await expect(openS3Storage(server.settings('ok/'), spoolDir)).resolves.toBeDefined();
  });

  it('deletes the spool files a killed process left when it opens, and nothing else there', async () => {
    const spoolDir = path.join(spoolRoot, 'crashed');
    mkdirSync(spoolDir);
    const stale = [`s3-upload-${'a'.repeat(32)}.part`, `s3-upload-${'b'.repeat(32)}.part`];
    for (const name of [...stale, 'notes.txt']) writeFileSync(path.join(spoolDir, name), 'left behind');
    const store = await openS3Storage(server.settings('reopened/'), spoolDir);
    expect(readdirSync(spoolDir)).toEqual(['notes.txt']);
    // And it works from there, leaving the folder as it found it.
    const object = await store.put(Readable.from([Buffer.from('after a crash')]), 'video/mp4');
    expect(await text(store.read(object.key))).toBe('after a crash');
    expect(readdirSync(spoolDir)).toEqual(['notes.txt']);
    expect(openFilesUnder(spoolDir)).toEqual([]);
  });

  it('makes its spool folder when it opens', async () => {
    const spoolDir = path.join(spoolRoot, 'fresh', 'tmp');
    await openS3Storage(server.settings('fresh/'), spoolDir);
    expect(existsSync(spoolDir)).toBe(true);
  });
});
