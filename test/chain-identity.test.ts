import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ChainIdentityError } from '#server/chain-identity';
import { loadConfig } from '#server/config';
import { openRuntime } from '#server/runtime';
import { withDatabase } from './global-setup';

/**
 * One database, one chain: the first start records the chain's genesis hash, the escrow program
 * and the fee payer; a start on another chain refuses with one line saying which differs and how
 * to run several instances. On PostgreSQL (TEST_DATABASE_URL) two data folders share one database
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

async function startAndStop(dataDir: string, databaseUrl: string | null) {
  const runtime = await openRuntime(configFor(dataDir, databaseUrl));
  const programId = runtime.escrowProgram.programId;
  await runtime.close();
  return programId;
}

describe(`a second chain on one database (${postgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('refuses to start, naming what differs and how to fix it; the same chain restarts fine', async () => {
    const url = await sharedDatabaseUrl();
    const first = newDataDir();
    const firstProgram = await startAndStop(first, url);
    // The same data folder again: its own chain, program and seed.
    expect(await startAndStop(first, url)).toBe(firstProgram);

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
    expect(message).toContain(`its dares' SOL is held by escrow program ${firstProgram}`);
    expect(message).toContain('npm run localnet');

    // The refusal changed nothing: the first instance still starts on its chain.
    expect(await startAndStop(first, url)).toBe(firstProgram);
  }, 240_000);
});
