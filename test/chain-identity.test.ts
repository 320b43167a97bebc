import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSigner } from '@solana/kit';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { V1_PROGRAM_KEYPAIR_FILE } from '#server/chain/escrow-program/app-program';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { ChainIdentityError } from '#server/chain-identity';
import { loadConfig } from '#server/config';
import { dareWallets } from '#server/db/schema';
import { openRuntime } from '#server/runtime';
import { withDatabase } from './global-setup';

/**
 * One database, one chain: the first start records the chain's genesis hash, the escrow programs
 * and the fee payer; a start on another chain refuses with one line saying which differs and how
 * to run several instances. A start without escrow program v1 runs only on a database that holds
 * no v1 vault (decision 081). On PostgreSQL (TEST_DATABASE_URL) two data folders share one database
 * as two instances would; on PGlite the second data folder holds a copy of the first's database.
 */
const postgres = inject('postgresTemplate');
const folders: string[] = [];
const databases: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-identity-'));
  folders.push(dir);
  return dir;
};

afterAll(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  if (!postgres || databases.length === 0) return;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

async function sharedDatabaseUrl(): Promise<string | null> {
  if (!postgres) return null;
  const name = `${postgres.database}_id${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.database}`);
  await admin.end();
  databases.push(name);
  return withDatabase(postgres.adminUrl, name);
}

const configFor = (dataDir: string, databaseUrl: string | null) =>
  loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    SEED_DEMO_DATA: 'false',
    DATABASE_URL: databaseUrl ?? '',
  });

/** Starts and stops the runtime; answers the escrow programs it ran. */
async function startAndStop(dataDir: string, databaseUrl: string | null) {
  const runtime = await openRuntime(configFor(dataDir, databaseUrl));
  const programs = { v1: runtime.escrowProgram?.programId ?? null, v2: runtime.escrowProgramV2.programId };
  await runtime.close();
  return programs;
}

describe(`a second chain on one database (${postgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('refuses to start, naming what differs and how to fix it; the same chain restarts fine', async () => {
    const url = await sharedDatabaseUrl();
    const first = newDataDir();
    const firstProgram = await startAndStop(first, url);
    // The same data folder again: its own chain, program and seed.
    expect(await startAndStop(first, url)).toEqual(firstProgram);

    const second = newDataDir();
    // PGlite's database lives in the data folder: the second folder gets a copy of the first's.
    if (!url) cpSync(path.join(first, 'pglite'), path.join(second, 'pglite'), { recursive: true });
    const refused = await openRuntime(configFor(second, url)).then(
      async (runtime) => {
        await runtime.close();
        return null;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ChainIdentityError);
    const message = (refused as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`its new dares' SOL is held by escrow program v2 ${firstProgram.v2}`);
    expect(message).toContain('npm run localnet');

    // The refusal changed nothing: the first instance still starts on its chain.
    expect(await startAndStop(first, url)).toEqual(firstProgram);
  }, 240_000);
});

describe('a start without escrow program v1', () => {
  it('runs on a database without v1 vaults; on one holding a v1 vault it refuses, naming the id to set', async () => {
    const url = await sharedDatabaseUrl();
    const dataDir = newDataDir();
    // A data folder from before v1 was retired: its chain folder keeps v1's keypair, so the start
    // deploys v1 and the database records it.
    const v1Keypair = path.join(dataDir, 'chain', V1_PROGRAM_KEYPAIR_FILE);
    mkdirSync(path.dirname(v1Keypair), { recursive: true });
    writeNewKeypairFile(v1Keypair);
    const withV1 = await startAndStop(dataDir, url);
    expect(withV1.v1).toBe((await readKeypairFile(v1Keypair)).address);

    // Without v1 (its id no longer kept): no v1 vault in the database, so the start runs.
    const keptAside = `${v1Keypair}.aside`;
    renameSync(v1Keypair, keptAside);
    expect(await startAndStop(dataDir, url)).toEqual({ v1: null, v2: withV1.v2 });

    // A v1 vault in the database: refused in one line, naming the recorded id.
    const runtime = await openRuntime(configFor(dataDir, url));
    await runtime.database.db.insert(dareWallets).values({
      publicKey: (await generateKeyPairSigner()).address,
      vaultSeed: randomBytes(32).toString('hex'),
      programVersion: 1,
      status: 'active',
    });
    await runtime.close();
    const refused = await openRuntime(configFor(dataDir, url)).then(
      async (opened) => {
        await opened.close();
        return null;
      },
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ChainIdentityError);
    expect((refused as Error).message).not.toContain('\n');
    expect((refused as Error).message).toContain(
      `This database holds 1 dare vault(s) of escrow program v1, but this instance runs no v1 program: set ESCROW_PROGRAM_ID=${withV1.v1}`,
    );

    // v1 back: the database's own program, so it starts again.
    renameSync(keptAside, v1Keypair);
    expect(await startAndStop(dataDir, url)).toEqual(withV1);
  }, 240_000);
});
