import { createKeyPairFromPrivateKeyBytes } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { KeyFileError, seedFromKeyFile } from './dev-wallet';

/** A solana-keygen key file's text for `seed`: seed then public key, 64 numbers. */
async function keyFile(seed: Uint8Array): Promise<string> {
  const keys = await createKeyPairFromPrivateKeyBytes(seed, true);
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey));
  return JSON.stringify([...seed, ...publicKey]);
}

describe('a key file as the local dev wallet', () => {
  it('takes a solana-keygen file and gives back its seed', async () => {
    const seed = new Uint8Array(32).fill(7);
    expect(await seedFromKeyFile(await keyFile(seed))).toEqual(seed);
  });

  it('refuses what is not a key file, or one whose halves do not match, saying so', async () => {
    await expect(seedFromKeyFile('not json')).rejects.toThrow(KeyFileError);
    await expect(seedFromKeyFile('[1,2,3]')).rejects.toThrow(
      'This file is not a key file (a JSON array of 64 numbers)',
    );
    await expect(seedFromKeyFile(JSON.stringify(new Array(64).fill(300)))).rejects.toThrow(KeyFileError);
    const damaged = JSON.parse(await keyFile(new Uint8Array(32).fill(9))) as number[];
    damaged[40] = (damaged[40]! + 1) % 256;
    await expect(seedFromKeyFile(JSON.stringify(damaged))).rejects.toThrow(
      'The key file is damaged: its public key is not its secret key’s',
    );
  });
});
