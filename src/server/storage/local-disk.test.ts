import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalDiskStorage } from './local-disk';

const dirs: string[] = [];
function storage() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-storage-'));
  dirs.push(dir);
  return { dir, store: createLocalDiskStorage(path.join(dir, 'videos')) };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('local disk storage', () => {
  it('stores a stream under a random key and reads back whole or by range', async () => {
    const { store } = storage();
    const object = await store.put(Readable.from([Buffer.from('hello '), Buffer.from('video')]), 'video/mp4');
    expect(object).toMatchObject({ size: 11, contentType: 'video/mp4' });
    expect(object.key).toMatch(/^[a-f0-9]{32}$/);
    expect(await store.stat(object.key)).toEqual(object);
    expect(await text(store.read(object.key))).toBe('hello video');
    expect(await text(store.read(object.key, { start: 6, end: 10 }))).toBe('video');
  });

  it('keeps nothing when the incoming stream fails', async () => {
    const { dir, store } = storage();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put(failing, 'video/mp4')).rejects.toThrow('client went away');
    expect(readdirSync(path.join(dir, 'videos'))).toEqual([]);
  });

  it('stops and keeps nothing when the signal aborts a stream that never ends', async () => {
    const { dir, store } = storage();
    const endless = new Readable({ read() {} });
    endless.push(Buffer.alloc(1024));
    const controller = new AbortController();
    const put = store.put(endless, 'video/mp4', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 20);
    await expect(put).rejects.toThrow();
    expect(endless.destroyed).toBe(true);
    expect(readdirSync(path.join(dir, 'videos'))).toEqual([]);
  });

  it('lists every object with the bytes it takes, partial ones included', async () => {
    const { dir, store } = storage();
    expect(await store.list()).toEqual([]);
    const object = await store.put(Readable.from([Buffer.from('12345')]), 'video/mp4');
    writeFileSync(path.join(dir, 'videos', 'a'.repeat(32)), 'partial');
    writeFileSync(path.join(dir, 'videos', 'notes.txt'), 'not ours');
    const listed = await store.list();
    expect(listed.map(({ key }) => key).sort()).toEqual([object.key, 'a'.repeat(32)].sort());
    const complete = listed.find(({ key }) => key === object.key)!;
    expect(complete.size).toBeGreaterThan(5);
    expect(complete.modifiedAt).toBeInstanceOf(Date);
  });

  it('refuses keys that are not its own, so no path escapes the folder', async () => {
    const { store } = storage();
    expect(await store.stat('../../etc/passwd')).toBeNull();
    expect(() => store.read('../secret')).toThrow(/Invalid storage key/);
  });

  it('removes an object and its metadata', async () => {
    const { dir, store } = storage();
    const object = await store.put(Readable.from([Buffer.from('x')]), 'video/webm');
    await store.remove(object.key);
    expect(await store.stat(object.key)).toBeNull();
    expect(readdirSync(path.join(dir, 'videos'))).toEqual([]);
  });
});
