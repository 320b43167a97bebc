import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { UPLOADED_VIDEO_PREFIX } from '#contract/submissions';
import type { StoragePort } from '#server/storage/port';
import { createHashingStream, proofHashOf } from './proof-hash';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const KEY = 'a'.repeat(32);

/** A store holding one object, `bytes`, at KEY (or nothing). */
function storeHolding(bytes: Buffer | null): StoragePort {
  return {
    stat: async (key: string) =>
      bytes && key === KEY ? { key, size: bytes.length, contentType: 'video/mp4' } : null,
    read: () => Readable.from([bytes!.subarray(0, 7), bytes!.subarray(7)]),
  } as unknown as StoragePort;
}

describe('the fingerprint of a proof', () => {
  it('hashes a stream as it passes, unchanged, chunk by chunk', async () => {
    const hasher = createHashingStream();
    const out: Buffer[] = [];
    await pipeline(Readable.from([Buffer.from('hello '), Buffer.from('world')]), hasher, async (source) => {
      for await (const chunk of source) out.push(chunk as Buffer);
    });
    expect(Buffer.concat(out).toString()).toBe('hello world');
    expect(hasher.digest()).toBe(sha256('hello world'));
  });

  it('is a link’s exact URL hashed, an upload’s recorded hash, or an older upload’s bytes hashed once and recorded', async () => {
    const recorded: [string, string][] = [];
    const sources = (stored: Buffer | null, known: string | null) => ({
      storage: storeHolding(stored),
      recordedUploadHash: async () => known,
      recordUploadHash: async (key: string, hash: string) => {
        recorded.push([key, hash]);
      },
    });
    const link = 'https://videos.example/ünïcode.mp4';
    expect(await proofHashOf(link, sources(null, null))).toBe(
      createHash('sha256').update(Buffer.from(link, 'utf8')).digest('hex'),
    );
    const url = `${UPLOADED_VIDEO_PREFIX}${KEY}`;
    expect(await proofHashOf(url, sources(Buffer.from('bytes'), 'f'.repeat(64)))).toBe('f'.repeat(64));
    expect(recorded).toEqual([]);
    const bytes = Buffer.from('an older upload, stored before hashing');
    expect(await proofHashOf(url, sources(bytes, null))).toBe(sha256(bytes));
    expect(recorded).toEqual([[KEY, sha256(bytes)]]);
    // Gone: no fingerprint.
    expect(await proofHashOf(url, sources(null, null))).toBeNull();
  });
});
