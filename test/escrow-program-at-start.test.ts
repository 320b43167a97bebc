import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEscrowKeys } from '#server/chain/escrow-keys';
import {
  deployEscrowProgramsOnEmbeddedChain,
  V1_PROGRAM_KEYPAIR_FILE,
} from '#server/chain/escrow-program/app-program';
import {
  checkDeployedProgram,
  makeProgramImmutable,
  rpcDeployTarget,
} from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { LOADER_V3_PROGRAM_ADDRESS } from '#server/chain/escrow-program/loader-v3';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { createChain } from '#server/chain/index';
import { loadConfig } from '#server/config';
import { openRuntime } from '#server/runtime';

/**
 * What the server does at start on the embedded defaults: the committed escrow program v2 is
 * deployed through the upgradeable loader, once, at a program id that survives a restart; v1 only
 * where the data folder already runs it (decision 081).
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-program-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
// The runtime on its own data folder (embedded PGlite and chain), as `npm start` opens it.
const configIn = (dir: string) =>
  loadConfig({ DATA_DIR: dir, NODE_ENV: 'test', SEED_DEMO_DATA: 'false', DATABASE_URL: '' });

describe('the escrow program on the embedded chain', () => {
  it('is deployed through the loader at the first start and kept, unchanged, across a restart; a new folder gets no v1', async () => {
    const config = configIn(dataDir);
    const first = await openRuntime(config);
    let programId: string;
    try {
      expect(first.escrowProgramV2.action).toBe('deployed');
      programId = first.escrowProgramV2.programId;
      const { value: account } = await first.chain.rpc
        .getAccountInfo(first.escrowProgramV2.programId, { encoding: 'base64' })
        .send();
      expect(account?.executable).toBe(true);
      expect(account?.owner).toBe(LOADER_V3_PROGRAM_ADDRESS);
      const check = await checkDeployedProgram(
        first.chain.rpc,
        first.escrowProgramV2.programId,
        readEscrowProgramV2(),
      );
      expect(check.same).toBe(true);
      expect(check.upgradeAuthority).toBe((await first.escrowKeys.feePayer()).address);
      // A new data folder never had a v1 vault: no v1 program, no id kept for one.
      expect(first.escrowProgram).toBeNull();
      expect(existsSync(path.join(config.dataDir, 'chain', V1_PROGRAM_KEYPAIR_FILE))).toBe(false);
    } finally {
      await first.close();
    }

    const second = await openRuntime(config);
    try {
      expect(second.escrowProgramV2).toEqual({ programId, action: 'unchanged' });
      expect(second.escrowProgram).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('keeps running v1 where the data folder has it, at the id it keeps', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-program-start-v1-'));
    try {
      // A folder from before v1 was retired: its chain folder keeps v1's program keypair.
      const keypairFile = path.join(dir, 'chain', V1_PROGRAM_KEYPAIR_FILE);
      mkdirSync(path.dirname(keypairFile), { recursive: true });
      writeNewKeypairFile(keypairFile);
      const v1Id = (await readKeypairFile(keypairFile)).address;
      for (const action of ['deployed', 'unchanged'] as const) {
        const runtime = await openRuntime(configIn(dir));
        try {
          expect(runtime.escrowProgram).toEqual({ programId: v1Id, action });
          const check = await checkDeployedProgram(runtime.chain.rpc, v1Id, readEscrowProgram());
          expect(check.same).toBe(true);
        } finally {
          await runtime.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the escrow program on a real cluster', () => {
  // A cluster reached over JSON-RPC as any real one: an embedded chain serving its RPC.
  let cluster: Awaited<ReturnType<typeof createChain>>;
  const clusterDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-program-cluster-'));
  const seed = randomBytes(64);
  /** Where the operator's upgrade authority comes from in these tests: apart from the server's seed. */
  const operatorSeed = randomBytes(64);
  let env: Record<string, string>;
  beforeAll(async () => {
    cluster = await createChain({ stateDir: null, rpcServer: { host: '127.0.0.1', port: 0 } });
    if (!cluster.rpcServer?.serving) throw new Error('the test cluster does not serve its RPC');
    env = {
      DATA_DIR: clusterDir,
      NODE_ENV: 'test',
      SEED_DEMO_DATA: 'false',
      DATABASE_URL: '',
      SOLANA_RPC_URL: cluster.rpcServer.httpUrl,
      SOLANA_CLUSTER: 'localnet',
      ESCROW_MASTER_SEED: seed.toString('hex'),
      JUDGE_WALLETS: (await generateKeyPairSigner()).address,
      GUARDIAN_WALLET: (await generateKeyPairSigner()).address,
    };
  });
  afterAll(async () => {
    await cluster?.close();
    rmSync(clusterDir, { recursive: true, force: true });
  });

  /**
   * Each start gets its own data folder (its own database): a database records the program its
   * dares use at the first start and refuses another (decision 028), and every test here deploys
   * a new program.
   */
  const ownDataDir = () => mkdtempSync(path.join(clusterDir, 'start-'));

  /**
   * Both programs of this build deployed at new ids, upgradeable by an operator's key: one derived
   * from a seed of its own, never the server's (`byServerKey`: the server's own fee payer, which
   * the start must refuse to accept).
   */
  async function deployUpgradeable({ byServerKey = false } = {}) {
    const keys = createEscrowKeys(byServerKey ? seed : operatorSeed);
    const { v1, v2 } = await deployEscrowProgramsOnEmbeddedChain(cluster, keys, null, { withV1: true });
    return {
      programId: v1!.programId,
      programV2Id: v2.programId,
      authority: (await keys.feePayer()).address,
    };
  }

  /** A start on the test cluster with these programs, on a data folder of its own. */
  const startOn = (programs: { programId: string; programV2Id: string }, more: Record<string, string> = {}) =>
    openRuntime(
      loadConfig({
        ...env,
        DATA_DIR: ownDataDir(),
        ESCROW_PROGRAM_ID: programs.programId,
        ESCROW_PROGRAM_V2_ID: programs.programV2Id,
        ...more,
      }),
    );

  it('refuses to start until the configured program runs this build there, saying how to deploy it', async () => {
    const notYet = (await generateKeyPairSigner()).address;
    await expect(startOn({ programId: notYet, programV2Id: notYet })).rejects.toThrow(
      `The escrow program is not deployed at ${notYet} on localnet: deploy program/build/darepool_escrow.so with \`npm run program:deploy`,
    );
  });

  it('starts without ESCROW_PROGRAM_ID on a cluster that runs v2 alone, checking only v2', async () => {
    const keys = createEscrowKeys(operatorSeed);
    // As `npm run cluster:setup` leaves a new cluster: v2 deployed, never v1 (decision 081).
    const { v1, v2 } = await deployEscrowProgramsOnEmbeddedChain(cluster, keys, null);
    expect(v1).toBeNull();
    const authority = (await keys.feePayer()).address;
    const runtime = await openRuntime(
      loadConfig({
        ...env,
        DATA_DIR: ownDataDir(),
        ESCROW_PROGRAM_V2_ID: v2.programId,
        ESCROW_PROGRAM_UPGRADE_AUTHORITY: authority,
      }),
    );
    try {
      expect(runtime.escrowProgram).toBeNull();
      expect(runtime.escrowProgramV2).toEqual({
        programId: v2.programId,
        action: 'checked',
        notice: `Escrow program v2 ${v2.programId}: upgradeable, its code can be replaced by ${authority} (ESCROW_PROGRAM_UPGRADE_AUTHORITY)`,
      });
    } finally {
      await runtime.close();
    }
  });

  it('starts on an immutable program, saying nobody can replace its code', async () => {
    const { programId, programV2Id } = await deployUpgradeable();
    for (const id of [programId, programV2Id])
      await makeProgramImmutable({
        target: rpcDeployTarget(cluster.rpc, { pollMs: 5 }),
        authority: await createEscrowKeys(operatorSeed).feePayer(),
        programId: id,
      });
    const runtime = await startOn({ programId, programV2Id });
    try {
      expect(runtime.escrowProgram).toEqual({
        programId,
        action: 'checked',
        notice: `Escrow program ${programId}: immutable, no key can replace its code`,
      });
      expect(runtime.escrowProgramV2).toEqual({
        programId: programV2Id,
        action: 'checked',
        notice: `Escrow program v2 ${programV2Id}: immutable, no key can replace its code`,
      });
    } finally {
      await runtime.close();
    }
  });

  it('refuses an upgradeable program unless its authority is named, and names the authority', async () => {
    const deployed = await deployUpgradeable();
    const { programId, authority } = deployed;
    await expect(startOn(deployed)).rejects.toThrow(
      `The program at ${programId} on localnet is upgradeable: ${authority} can replace its code. Either make it immutable (\`npm run program:deploy -- --keypair <authority.json> --make-immutable ${programId}\`), or accept that key (e.g. a multisig) with ESCROW_PROGRAM_UPGRADE_AUTHORITY=${authority} (docs/program.md)`,
    );
  });

  it('starts on an upgradeable program whose authority the operator named, saying in one line who can replace it', async () => {
    const deployed = await deployUpgradeable();
    const { programId, authority } = deployed;
    const runtime = await startOn(deployed, { ESCROW_PROGRAM_UPGRADE_AUTHORITY: authority });
    try {
      expect(runtime.escrowProgram).toEqual({
        programId,
        action: 'checked',
        notice: `Escrow program ${programId}: upgradeable, its code can be replaced by ${authority} (ESCROW_PROGRAM_UPGRADE_AUTHORITY)`,
      });
      expect(runtime.escrowProgram?.notice).not.toContain('\n');
    } finally {
      await runtime.close();
    }
  });

  it('refuses an upgradeable program whose authority is another key than the one named, naming both', async () => {
    const deployed = await deployUpgradeable();
    const { programId, authority } = deployed;
    const named = (await generateKeyPairSigner()).address;
    await expect(startOn(deployed, { ESCROW_PROGRAM_UPGRADE_AUTHORITY: named })).rejects.toThrow(
      `The program at ${programId} on localnet can be replaced by ${authority}, not by ESCROW_PROGRAM_UPGRADE_AUTHORITY=${named}:`,
    );
  });

  it('refuses to start, in one line, when the accepted upgrade authority is a key the server holds', async () => {
    // The intruder's way in: the programs upgradeable by the server's own fee payer, and the
    // operator told to accept it. With the seed alone, the code could be replaced.
    const deployed = await deployUpgradeable({ byServerKey: true });
    const { authority } = deployed;
    const keys = createEscrowKeys(seed);
    const held = keys.heldKeys();
    const moderator = (await keys.moderator()).address;
    const pathKey = [...held].find(([, name]) => name === "the key at m/44'/501'/3'/0'")![0];
    const start = (accepted: string) => startOn(deployed, { ESCROW_PROGRAM_UPGRADE_AUTHORITY: accepted });
    const refusal = (key: string, name: string) =>
      `Invalid ESCROW_PROGRAM_UPGRADE_AUTHORITY: ${key} is ${name}, derived from ESCROW_MASTER_SEED: whoever holds the seed could replace the escrow program's code and take every pool; name a key kept apart from the server (e.g. a multisig), or make the program immutable (docs/program.md)`;
    expect(authority).toBe((await keys.feePayer()).address);
    await expect(start(authority)).rejects.toThrow(refusal(authority, 'the platform fee payer'));
    await expect(start(moderator)).rejects.toThrow(refusal(moderator, 'the moderator (canceller) key'));
    await expect(start(pathKey)).rejects.toThrow(refusal(pathKey, "the key at m/44'/501'/3'/0'"));
    const error = await start(authority).catch((caught: Error) => caught);
    expect((error as Error).message).not.toContain('\n');
  });

  it("refuses to start with one of the server's own keys as a judge or the guardian, saying why", async () => {
    const deployed = await deployUpgradeable();
    const keys = createEscrowKeys(seed);
    const feePayer = (await keys.feePayer()).address;
    const moderator = (await keys.moderator()).address;
    const start = (extra: Record<string, string>) =>
      startOn(deployed, { ESCROW_PROGRAM_UPGRADE_AUTHORITY: deployed.authority, ...extra });
    await expect(start({ JUDGE_WALLETS: `${env.JUDGE_WALLETS},${moderator}` })).rejects.toThrow(
      `Invalid JUDGE_WALLETS: ${moderator} is the moderator (canceller) key, derived from ESCROW_MASTER_SEED: a judge must be an admin's own wallet, or the server alone could name winners`,
    );
    await expect(start({ JUDGE_WALLETS: feePayer })).rejects.toThrow(
      `Invalid JUDGE_WALLETS: ${feePayer} is the platform fee payer, derived from ESCROW_MASTER_SEED`,
    );
    await expect(start({ GUARDIAN_WALLET: feePayer })).rejects.toThrow(
      `Invalid GUARDIAN_WALLET: ${feePayer} is the platform fee payer, derived from ESCROW_MASTER_SEED: the guardian must be a key kept offline, apart from the server`,
    );
    await expect(start({ GUARDIAN_WALLET: env.JUDGE_WALLETS! })).rejects.toThrow(
      /^Invalid GUARDIAN_WALLET: .* is also a judge/,
    );
    // With keys of their own, the same start succeeds and records them.
    const runtime = await start({});
    try {
      expect(runtime.judging).toMatchObject({
        judges: [env.JUDGE_WALLETS],
        threshold: 1,
        guardian: env.GUARDIAN_WALLET,
        payoutWindowSeconds: 86_400n,
      });
    } finally {
      await runtime.close();
    }
  });
});
