import { readFileSync, writeFileSync } from 'node:fs';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';

export class KeypairFileError extends Error {
  override name = 'KeypairFileError';
}

/** Reads a solana-keygen keypair file: a JSON array of 64 numbers (secret seed, public key). */
export async function readKeypairFile(path: string): Promise<KeyPairSigner> {
  let bytes: unknown;
  try {
    bytes = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new KeypairFileError(`cannot read keypair ${path}: ${(error as Error).message}`);
  }
  if (
    !Array.isArray(bytes) ||
    bytes.length !== 64 ||
    !bytes.every((b) => Number.isInteger(b) && b >= 0 && b < 256)
  ) {
    throw new KeypairFileError(`${path} is not a solana-keygen keypair (a JSON array of 64 bytes)`);
  }
  return createKeyPairSignerFromBytes(new Uint8Array(bytes as number[]));
}

/** Writes a new keypair in solana-keygen's format, readable only by its owner; never overwrites. */
export function writeNewKeypairFile(path: string): void {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const bytes = [...secret, ...ed25519.getPublicKey(secret)];
  writeFileSync(path, `${JSON.stringify(bytes)}\n`, { mode: 0o600, flag: 'wx' });
}
