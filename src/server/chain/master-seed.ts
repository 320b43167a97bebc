import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SEED_FILE = 'escrow-master-seed';

/**
 * The 64-byte master seed every escrow key is derived from. On a real cluster it must come from
 * the environment (a secret store); in embedded mode it is created once in the data folder,
 * readable only by the owner, so a newcomer needs no setup.
 */
export function loadMasterSeed(options: {
  seedHex: string | undefined;
  dataDir: string;
  embedded: boolean;
}): Uint8Array {
  if (options.seedHex) return Uint8Array.from(Buffer.from(options.seedHex, 'hex'));
  if (!options.embedded) throw new Error('ESCROW_MASTER_SEED is required on a real cluster');
  const file = path.join(options.dataDir, SEED_FILE);
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{128}$/.test(hex)) throw new Error(`Corrupt escrow master seed file: ${file}`);
    return Uint8Array.from(Buffer.from(hex, 'hex'));
  }
  mkdirSync(options.dataDir, { recursive: true });
  const seed = randomBytes(64);
  writeFileSync(file, `${seed.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return Uint8Array.from(seed);
}
