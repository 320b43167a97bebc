import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { StoragePort } from '#server/storage/port';

export interface StorageUnderTest {
  store: StoragePort;
  /** What the backend still holds, whatever the port shows: files, objects, unfinished uploads. */
  leftovers(): Promise<string[]>;
}

/** What every StoragePort adapter must do; `open` gives each test an empty store of its own. */
export function describeStoragePort(name: string, open: () => Promise<StorageUnderTest>) {
  describe(`${name}: the storage port`, () => {
    it('stores a stream under a random key and reads back whole or by range', async () => {
      const { store } = await open();
      const object = await store.put(
        Readable.from([Buffer.from('hello '), Buffer.from('video')]),
        'video/mp4',
      );
      expect(object).toMatchObject({ size: 11, contentType: 'video/mp4' });
      expect(object.key).toMatch(/^[a-f0-9]{32}$/);
      expect(await store.stat(object.key)).toEqual(object);
      expect(await text(store.read(object.key))).toBe('hello video');
      expect(await text(store.read(object.key, { start: 6, end: 10 }))).toBe('video');
    });

    it('takes a content type read once the bytes have come', async () => {
      const { store } = await open();
      let type = 'application/octet-stream';
      const body = Readable.from(
        (async function* () {
          type = 'video/webm';
          yield Buffer.from('webm bytes');
        })(),
      );
      const object = await store.put(body, () => type);
      expect((await store.stat(object.key))?.contentType).toBe('video/webm');
    });

    it('keeps nothing when the incoming stream fails', async () => {
      const { store, leftovers } = await open();
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1024));
          this.destroy(new Error('client went away'));
        },
      });
      await expect(store.put(failing, 'video/mp4')).rejects.toThrow('client went away');
      expect(await leftovers()).toEqual([]);
    });

    it('stops and keeps nothing when the signal aborts a stream that never ends', async () => {
      const { store, leftovers } = await open();
      const endless = new Readable({ read() {} });
      endless.push(Buffer.alloc(1024));
      const controller = new AbortController();
      const put = store.put(endless, 'video/mp4', { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('timed out')), 20);
      await expect(put).rejects.toThrow();
      expect(endless.destroyed).toBe(true);
      expect(await leftovers()).toEqual([]);
    });

    it('lists what it stored, with the bytes it takes and when it was written', async () => {
      const { store } = await open();
      expect(await store.list()).toEqual([]);
      const object = await store.put(Readable.from([Buffer.from('12345')]), 'video/mp4');
      const listed = await store.list();
      expect(listed.map(({ key }) => key)).toEqual([object.key]);
      expect(listed[0]!.size).toBeGreaterThanOrEqual(5);
      expect(listed[0]!.modifiedAt).toBeInstanceOf(Date);
    });

    it('refuses keys that are not its own, so no path escapes its place', async () => {
      const { store } = await open();
      expect(await store.stat('../../etc/passwd')).toBeNull();
      expect(() => store.read('../secret')).toThrow(/Invalid storage key/);
    });

    it('removes an object and all it keeps for it', async () => {
      const { store, leftovers } = await open();
      const object = await store.put(Readable.from([Buffer.from('x')]), 'video/webm');
      await store.remove(object.key);
      expect(await store.stat(object.key)).toBeNull();
      expect(await leftovers()).toEqual([]);
    });
  });
}
