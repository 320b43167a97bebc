import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDeployedProgram } from '#server/chain/escrow-program/deploy';
import { LOADER_V3_PROGRAM_ADDRESS } from '#server/chain/escrow-program/loader-v3';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { loadConfig } from '#server/config';
import { openRuntime } from '#server/runtime';

/**
 * What the server does at start on the embedded defaults: the committed escrow program is deployed
 * through the upgradeable loader, once, at a program id that survives a restart.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-program-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The runtime on its own data folder (embedded PGlite and chain), as `npm start` opens it.
const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', SEED_DEMO_DATA: 'false', DATABASE_URL: '' });

describe('the escrow program on the embedded chain', () => {
  it('is deployed through the loader at the first start and kept, unchanged, across a restart', async () => {
    const first = await openRuntime(config);
    let programId: string;
    try {
      expect(first.escrowProgram?.action).toBe('deployed');
      programId = first.escrowProgram!.programId;
      const { value: account } = await first.chain.rpc
        .getAccountInfo(first.escrowProgram!.programId, { encoding: 'base64' })
        .send();
      expect(account?.executable).toBe(true);
      expect(account?.owner).toBe(LOADER_V3_PROGRAM_ADDRESS);
      const check = await checkDeployedProgram(
        first.chain.rpc,
        first.escrowProgram!.programId,
        readEscrowProgram(),
      );
      expect(check.same).toBe(true);
      expect(check.upgradeAuthority).toBe((await first.escrowKeys.feePayer()).address);
    } finally {
      await first.close();
    }

    const second = await openRuntime(config);
    try {
      expect(second.escrowProgram).toEqual({ programId, action: 'unchanged' });
    } finally {
      await second.close();
    }
  });
});
