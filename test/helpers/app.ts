import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Address, generateKeyPairSigner } from '@solana/kit';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '#server/app';
import { createEscrowKeys, type EscrowKeys } from '#server/chain/escrow-keys';
import { deployEscrowProgramsOnEmbeddedChain } from '#server/chain/escrow-program/app-program';
import { createChain } from '#server/chain/index';
import type { ChainPort } from '#server/chain/port';
import { type AppConfig, loadConfig } from '#server/config';
import { type Database, openPglite, openPostgres } from '#server/db/client';
import { type Judging, resolveJudging } from '#server/judging-keys';
import { reconcileEscrows } from '#server/ledger/reconcile';
import { openVideoStorage } from '#server/storage/open';
import { withDatabase } from '../global-setup';

export const TEST_INDEX_HTML = '<!doctype html><title>DarePool</title><div id="root"></div>';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  /**
   * Escrow program v1 (vaults made before v2), deployed on the test's embedded chain as a data
   * folder from before v1 was retired has it; null with `v1Program: false` (decision 081).
   */
  escrowProgramId: Address | null;
  /** Escrow program v2 (new vaults). */
  escrowProgramV2Id: Address;
  /** The judges and guardian new vaults record (by default the demo admin wallet in `dataDir` judges). */
  judging: Judging;
  config: AppConfig;
  dataDir: string;
  /** Move the app's clock; starts at real time. */
  clock: { now: Date; advance(ms: number): void };
  /**
   * Stops the server and starts a new one on the same database; with `persistentChain`, the chain
   * too is saved, closed and reloaded from its data folder, as a process restart does.
   * `whileStopped` runs between the two, with nothing of the app open (the chain folder saved).
   */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Escrow program v1's id on the test's chain, for a test of vaults made before v2 (the default `v1Program`). */
export function v1ProgramOf(ctx: Pick<TestContext, 'escrowProgramId'>): Address {
  if (ctx.escrowProgramId === null)
    throw new Error('this test makes v1 vaults: its context needs escrow program v1 (v1Program)');
  return ctx.escrowProgramId;
}

/** The ids of the escrow programs a vault of the test's chain may be owned by (v2's, and v1's when it runs). */
export function programIdsOf(ctx: Pick<TestContext, 'escrowProgramId' | 'escrowProgramV2Id'>): Address[] {
  return ctx.escrowProgramId === null
    ? [ctx.escrowProgramV2Id]
    : [ctx.escrowProgramV2Id, ctx.escrowProgramId];
}

/** A fresh database cloned from the migrated template: PostgreSQL when TEST_DATABASE_URL is set, else PGlite. */
export async function openTestDatabase(): Promise<Database> {
  const postgres = inject('postgresTemplate');
  if (!postgres) {
    // A copy of the migrated folder, opened where it lies, deleted when the database closes.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'darepool-test-db-'));
    const dataDir = path.join(folder, 'pglite');
    cpSync(inject('pgliteTemplateDir'), dataDir, { recursive: true });
    const database = await openPglite({ dataDir });
    const close = database.close;
    database.close = async () => {
      try {
        await close();
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    };
    return database;
  }
  const name = `${postgres.database}_c${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${postgres.database}`);
  await admin.end();
  const database = await openPostgres(withDatabase(postgres.adminUrl, name), 5);
  const close = database.close;
  database.close = async () => {
    await close();
    const dropper = new pg.Client({ connectionString: postgres.adminUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  return database;
}

export interface TestContextOptions {
  /** Keep the embedded chain's state in the data folder, so `restart()` reloads it from disk. */
  persistentChain?: boolean;
  /** Another chain adapter (e.g. a real-cluster client) instead of a fresh embedded chain. */
  chain?: ChainPort;
  /**
   * Every file's money must reconcile when it closes (each escrow's balance on chain equals its
   * ledger): only a file that makes differences on purpose, to show they are reported, says so.
   */
  leavesReconcileDifferences?: boolean;
  /**
   * With `chain`: escrow program v1's id there, null for none (only the embedded chain is deployed
   * to); else an id nothing runs at (a chain the test supplies to fail, say an unreachable node).
   */
  escrowProgramId?: Address | null;
  /** With `chain`: escrow program v2's id there. */
  escrowProgramV2Id?: Address;
  /** Serve the embedded chain's JSON-RPC and PubSub on free loopback ports, as `npm start` does. */
  serveChainRpc?: boolean;
  /**
   * The embedded chain runs escrow program v1 too (default), for the tests of vaults made before v2;
   * false: a chain that never had v1, as a new data folder or cluster (decision 081).
   */
  v1Program?: boolean;
  /** A logger (pino options, e.g. with a `stream` to read the lines) and a clock for answer times. */
  app?: Pick<BuildAppOptions, 'logger' | 'answerTime'>;
}

/** The whole app in-process on a fresh database, a fresh embedded chain and a temp data folder. */
export async function createTestContext(
  env: Record<string, string> = {},
  options: TestContextOptions = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-test-'));
  // A payout window of an hour (the program's shortest): a test passes it with one warp of the chain.
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    SEED_DEMO_DATA: 'false',
    PAYOUT_WINDOW_HOURS: '1',
    // Tests open chat sockets far faster than people do, on a clock that stands still between
    // steps; the chat message flood test (alone) runs with the default.
    RATE_LIMIT_CHAT_OPENS_PER_SECOND: '100000',
    ...env,
  });
  const database = await openTestDatabase();
  const chainStateDir = options.persistentChain ? path.join(dataDir, 'chain') : null;
  // With its test controls: a test moves the chain's clock (ctx.chain.testControls.warp) instead of
  // sleeping; the server's /api/dev/warp still needs EMBEDDED_CHAIN_TEST_CONTROLS=1 in `env`.
  const openChain = () =>
    options.chain ??
    createChain({
      stateDir: chainStateDir,
      testControls: true,
      rpcServer: options.serveChainRpc ? { host: '127.0.0.1', port: 0 } : null,
    });
  let chain = await openChain();
  const clock = {
    now: new Date(),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  // A stand-in for the built SPA, so the fallback to index.html is tested without a web build.
  const webRoot = path.join(dataDir, 'web');
  mkdirSync(webRoot);
  writeFileSync(path.join(webRoot, 'index.html'), TEST_INDEX_HTML);
  // A random seed unless the file names one (ESCROW_MASTER_SEED), e.g. to hand it to a script.
  const escrowKeys = createEscrowKeys(
    config.escrowMasterSeedHex ? Buffer.from(config.escrowMasterSeedHex, 'hex') : randomBytes(64),
  );
  // The same program ids across a restart of a kept chain, as the server's start does.
  const deployPrograms = async () => {
    if (!options.chain) {
      const { v1, v2 } = await deployEscrowProgramsOnEmbeddedChain(chain, escrowKeys, chainStateDir, {
        withV1: options.v1Program ?? true,
      });
      return { v1: v1?.programId ?? null, v2: v2.programId };
    }
    return {
      v1:
        options.escrowProgramId === undefined
          ? (await generateKeyPairSigner()).address
          : options.escrowProgramId,
      v2: options.escrowProgramV2Id ?? (await generateKeyPairSigner()).address,
    };
  };
  let programs = await deployPrograms();
  const judging = await resolveJudging(config, escrowKeys);
  const start = async () => {
    const app = await buildApp({
      config,
      database,
      chain,
      escrowKeys,
      escrowProgramId: programs.v1,
      escrowProgramV2Id: programs.v2,
      judging,
      storage: await openVideoStorage(config.storage),
      clock: () => clock.now,
      webRoot,
      ...options.app,
    });
    await app.ready();
    return app;
  };
  const context: TestContext = {
    app: await start(),
    database,
    chain,
    escrowKeys,
    escrowProgramId: programs.v1,
    escrowProgramV2Id: programs.v2,
    judging,
    config,
    dataDir,
    clock,
    async restart(whileStopped) {
      await context.app.close();
      if (chainStateDir) await chain.close();
      await whileStopped?.();
      if (chainStateDir) {
        chain = await openChain();
        context.chain = chain;
        programs = await deployPrograms();
        context.escrowProgramId = programs.v1;
        context.escrowProgramV2Id = programs.v2;
      }
      context.app = await start();
    },
    async close() {
      const report = options.leavesReconcileDifferences
        ? null
        : await reconcileEscrows(database.db, chain.rpc).catch((error: unknown) => ({ error }));
      await context.app.close();
      await chain.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (report && 'error' in report) throw report.error;
      if (report && report.differences.length > 0) {
        throw new Error(
          `npm run reconcile would report ${report.differences.length} difference(s) after this file: ${JSON.stringify(report.differences, (_, value) => (typeof value === 'bigint' ? value.toString() : value))}`,
        );
      }
    },
  };
  return context;
}
