import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, createS3Storage, openS3Storage } from './s3';
import { describeStoragePort } from './testing/port-contract';
import { startTestS3Server, type TestS3Server } from './testing/s3-server';

const MiB = 1024 * 1024;
let server: TestS3Server;
beforeAll(async () => {
  server = await startTestS3Server();
});
const clients: S3Client[] = [];
afterAll(async () => {
  for (const client of clients) client.destroy();
  await server?.close();
});

let tests = 0;
/** Each test its own folder in the one bucket, so what it leaves is its own. */
function storage(options: { listPageSize?: number } = {}) {
  const prefix = `t${++tests}/`;
  const client = createS3Client(server.settings(prefix));
  clients.push(client);
  let listCalls = 0;
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'ListObjectsV2Command') listCalls++;
      return next(args);
    },
    { step: 'initialize' },
  );
  const store = createS3Storage({ client, bucket: server.bucket, prefix, ...options });
  return { prefix, client, store, listCalls: () => listCalls, leftovers: () => server.contents(prefix) };
}

/** `bytes` of data in 64 KiB chunks, then nothing more: a client that stalls. */
function stallingBody(bytes: number) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return;
      sent += 64 * 1024;
      this.push(Buffer.alloc(64 * 1024, 1));
    },
  });
}

describeStoragePort('S3 storage', async () => storage());

describe('S3 storage', () => {
  it('serves ranges of a multipart object: first bytes, across the part boundary, the last byte', async () => {
    const { store } = storage();
    const content = randomBytes(6 * MiB + 123);
    const object = await store.put(Readable.from([content]), 'video/mp4');
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

  it('knows no missing key: stat is null, a read fails with NoSuchKey, a remove is a no-op', async () => {
    const { store } = storage();
    const missing = 'b'.repeat(32);
    expect(await store.stat(missing)).toBeNull();
    await expect(text(store.read(missing))).rejects.toMatchObject({ name: 'NoSuchKey' });
    await expect(store.remove(missing)).resolves.toBeUndefined();
  });

  it('an upload aborted halfway leaves no object and no multipart upload', async () => {
    const { store, leftovers } = storage();
    const body = stallingBody(6 * MiB);
    const controller = new AbortController();
    const put = store.put(body, 'video/mp4', { signal: controller.signal });
    put.catch(() => {});
    // The first 5 MiB part has gone up: a multipart upload is open on the server.
    await expect.poll(leftovers, { timeout: 5_000 }).toEqual([expect.stringMatching(/^upload:/)]);
    controller.abort(new Error('timed out'));
    await expect(put).rejects.toThrow('timed out');
    expect(body.destroyed).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('a body that fails halfway leaves no object and no multipart upload', async () => {
    const { store, leftovers } = storage();
    const body = stallingBody(6 * MiB);
    const put = store.put(body, 'video/mp4');
    put.catch(() => {});
    await expect.poll(leftovers, { timeout: 5_000 }).toEqual([expect.stringMatching(/^upload:/)]);
    body.destroy(new Error('client went away'));
    await expect(put).rejects.toThrow('client went away');
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
    const { prefix, client, store, listCalls } = storage({ listPageSize: 2 });
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
    await expect(openS3Storage({ ...server.settings(), bucket: 'no-such-bucket' })).rejects.toThrow(
      /^Video storage s3:\/\/no-such-bucket\/ at http:\/\/127\.0\.0\.1:\d+ cannot be listed \(NoSuchBucket/,
    );
    // s3rver checks the key id, not v4 signatures: a wrong key id stands for wrong credentials.
    const wrongKey = {
      ...server.settings(),
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'nope' },
    };
    await expect(openS3Storage(wrongKey)).rejects.toThrow(/cannot be listed \(InvalidAccessKeyId/);
    await expect(openS3Storage(server.settings('ok/'))).resolves.toBeDefined();
  });
});
