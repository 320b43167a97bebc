import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, ListedObject, StoragePort, StoredObject } from './port';

const KEY_PATTERN = /^[a-f0-9]{32}$/;
const FILE_PATTERN = /^([a-f0-9]{32})(\.json)?$/;

/** Local-disk storage: `<dir>/<key>` plus `<key>.json` holding the content type. */
export function createLocalDiskStorage(dir: string): StoragePort {
  const fileOf = (key: string) => {
    // Keys are ours (random hex); anything else could walk out of the folder.
    if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
    return path.join(dir, key);
  };

  return {
    async put(body, contentTypeOf, options = {}) {
      await mkdir(dir, { recursive: true });
      const key = randomBytes(16).toString('hex');
      const file = fileOf(key);
      let contentType: string;
      const out = createWriteStream(file, { flags: 'wx' });
      try {
        // pipeline destroys every stream on failure or abort, so no file handle outlives the upload.
        await pipeline(body, out, { signal: options.signal });
        contentType = typeof contentTypeOf === 'function' ? contentTypeOf() : contentTypeOf;
        await writeFile(`${file}.json`, JSON.stringify({ contentType }));
      } catch (error) {
        // A write stream destroyed before its file opened still opens (creating the file) and then
        // closes it: removed before that close, an aborted upload's file would be left behind.
        if (!out.closed)
          await new Promise<void>((resolve) => out.once('close', () => resolve()).once('error', () => {}));
        await rm(file, { force: true });
        await rm(`${file}.json`, { force: true });
        throw error;
      }
      const { size } = await stat(file);
      return { key, size, contentType };
    },
    async stat(key): Promise<StoredObject | null> {
      if (!KEY_PATTERN.test(key)) return null;
      try {
        const [info, meta] = await Promise.all([stat(fileOf(key)), readFile(`${fileOf(key)}.json`, 'utf8')]);
        return {
          key,
          size: info.size,
          contentType: (JSON.parse(meta) as { contentType: string }).contentType,
        };
      } catch {
        return null;
      }
    },
    read(key, range?: ByteRange): Readable {
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
      await rm(`${fileOf(key)}.json`, { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const objects = new Map<string, ListedObject>();
      for (const name of names) {
        const match = FILE_PATTERN.exec(name);
        if (!match) continue;
        const info = await stat(path.join(dir, name)).catch(() => null);
        if (!info) continue;
        const key = match[1]!;
        const known = objects.get(key);
        objects.set(key, {
          key,
          size: (known?.size ?? 0) + info.size,
          modifiedAt: known && known.modifiedAt > info.mtime ? known.modifiedAt : info.mtime,
        });
      }
      return [...objects.values()];
    },
  };
}
