import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { describeStoragePort } from '#test/support/storage/port-contract';
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

describeStoragePort('local disk storage', async () => {
  const { dir, store } = storage();
  return {
    store,
    async leftovers() {
      try {
        return readdirSync(path.join(dir, 'videos'));
      } catch {
        return [];
      }
    },
  };
});

describe('local disk storage', () => {
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
});
