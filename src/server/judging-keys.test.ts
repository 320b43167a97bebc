import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { createEscrowKeys } from './chain/escrow-keys';
import { readKeypairFile } from './chain/escrow-program/keypair-file';
import { loadConfig } from './config';
import { DEMO_ADMIN_WALLET_FILE, GUARDIAN_KEYPAIR_FILE, resolveJudging } from './judging-keys';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-judging-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the judges and guardian of new vaults on the embedded chain', () => {
  it('default to the admins’ wallets that are addresses plus the demo admin’s, and a guardian key in DATA_DIR, kept across starts', async () => {
    const dir = dataDir();
    const admin = (await generateKeyPairSigner()).address;
    const config = loadConfig({ DATA_DIR: dir, ADMIN_WALLETS: `not-a-wallet, ${admin}` });
    const keys = createEscrowKeys(randomBytes(64));
    const judging = await resolveJudging(config, keys);
    const demo = await readKeypairFile(path.join(dir, DEMO_ADMIN_WALLET_FILE));
    const guardian = await readKeypairFile(path.join(dir, GUARDIAN_KEYPAIR_FILE));
    // A name in ADMIN_WALLETS (it promotes by wallet or username) is no judge: only addresses are.
    expect(judging).toEqual({
      judges: [admin, demo.address],
      threshold: 1,
      majorThreshold: 1,
      guardian: guardian.address,
      payoutWindowSeconds: 86_400n,
    });
    expect(await resolveJudging(config, keys)).toEqual(judging);
  });
});
