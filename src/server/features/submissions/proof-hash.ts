/**
 * The fingerprint of a proof (docs/decisions/038-proof-fingerprints.md): the SHA-256 of an
 * uploaded file's bytes as the server stored them, or of a link's exact URL string (UTF-8). A v2
 * entry carries it on chain, so the proof judged is the proof entered.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import type { StoragePort } from '#server/storage/port';
import { uploadedKey } from './video-url';

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The 32 bytes an entry holds, from the hex the database and the API keep. */
export const proofHashBytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
export const proofHashHex = (bytes: Uint8Array | Readonly<Uint8Array>) => Buffer.from(bytes).toString('hex');

/**
 * Passes bytes through unchanged while hashing them: placed just before the store, it hashes
 * exactly what is written, without holding the file in memory. `digest()` once the stream ended.
 */
export function createHashingStream(): Transform & { digest(): string } {
  const hash: Hash = createHash('sha256');
  let digest: string | null = null;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      digest = hash.digest('hex');
      callback();
    },
  });
  return Object.assign(stream, {
    digest() {
      if (digest === null) throw new Error('The stream has not ended: no digest yet');
      return digest;
    },
  });
}

/** SHA-256 of a stream's bytes, read chunk by chunk. */
export async function hashStream(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What the stored object `key` hashes to now; null when it is gone. */
export async function hashStoredObject(storage: StoragePort, key: string): Promise<string | null> {
  if (!(await storage.stat(key))) return null;
  try {
    return await hashStream(storage.read(key));
  } catch (error) {
    // Removed between the stat and the read: gone, as far as matching goes.
    if ((error as { code?: string }).code === 'ENOENT' || (await storage.stat(key)) === null) return null;
    throw error;
  }
}

export interface ProofHashSources {
  /** The hash recorded for this upload when it was stored (null for uploads older than hashing). */
  recordedUploadHash(key: string): Promise<string | null>;
  /** Records the hash of an upload stored before hashing existed, once computed. */
  recordUploadHash(key: string, sha256: string): Promise<void>;
  storage: StoragePort;
}

/**
 * The fingerprint of the proof at `videoUrl`: an upload's recorded hash (an older upload is
 * hashed from its stored bytes once, and recorded), or the link's URL hashed. The caller has
 * checked the upload is the user's to use; null when the upload's bytes are gone.
 */
export async function proofHashOf(videoUrl: string, sources: ProofHashSources): Promise<string | null> {
  const key = uploadedKey(videoUrl);
  if (!key) return sha256Hex(videoUrl);
  const recorded = await sources.recordedUploadHash(key);
  if (recorded) return recorded;
  const hashed = await hashStoredObject(sources.storage, key);
  if (hashed) await sources.recordUploadHash(key, hashed);
  return hashed;
}
