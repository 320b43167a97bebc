import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app';
import { createEscrowKeys, type EscrowKeys } from '#server/chain/escrow-keys';
import { deployEscrowProgramsOnEmbeddedChain } from '#server/chain/escrow-program/app-program';
import { createChain } from '#server/chain/index';
import type { ChainPort } from '#server/chain/port';
import { loadConfig } from '#server/config';
import { type Database, openPostgres } from '#server/db/client';
import { resolveJudging } from '#server/judging-keys';
import { createLocalDiskStorage } from '#server/storage/local-disk';
import type { StoragePort } from '#server/storage/port';
import { openTestDatabase } from './app';

export interface ClusterInstance {
  app: FastifyInstance;
  /** This instance's own connection pool to the shared database. */
  database: Database;
}

export interface Cluster {
  a: ClusterInstance;
  b: ClusterInstance;
  /** The one chain both instances use, as two instances share a real cluster. */
  chain: ChainPort;
  escrowKeys: EscrowKeys;
  storage: StoragePort;
  /** Moves both instances' clock (starts at real time). */
  clock: { offsetMs: number };
  close(): Promise<void>;
}

/**
 * Two whole apps on one PostgreSQL database, as behind a load balancer: each with its own pool and
 * bus listener, sharing what a deployment shares (the chain, the master seed, the video store).
 * PostgreSQL tier only (`*.pg.test.ts`).
 */
export async function startCluster(
  options: { env?: Record<string, string>; storage?: (shared: StoragePort) => StoragePort } = {},
): Promise<Cluster> {
  const first = await openTestDatabase();
  if (first.kind !== 'postgres') throw new Error('a cluster needs TEST_DATABASE_URL (PostgreSQL)');
  const connectionString = (first.pool!.options as { connectionString: string }).connectionString;
  const second = await openPostgres(connectionString, 5);
  const dirs = [mkdtempSync(path.join(os.tmpdir(), 'darepool-cluster-'))];
  const chain = await createChain({ stateDir: null });
  const escrowKeys = createEscrowKeys(randomBytes(64));
  const programs = await deployEscrowProgramsOnEmbeddedChain(chain, escrowKeys, null);
  // One set of judges for both instances, as a deployment configures them once.
  const judging = await resolveJudging(loadConfig({ DATA_DIR: dirs[0]!, NODE_ENV: 'test' }), escrowKeys);
  const disk = createLocalDiskStorage(path.join(dirs[0]!, 'videos'));
  const storage = options.storage ? options.storage(disk) : disk;
  const clock = { offsetMs: 0 };

  const start = async (database: Database): Promise<ClusterInstance> => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'darepool-cluster-'));
    dirs.push(dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      SEED_DEMO_DATA: 'false',
      ...options.env,
    });
    const app = await buildApp({
      config,
      database,
      chain,
      escrowKeys,
      escrowProgramId: null,
      escrowProgramV2Id: programs.v2.programId,
      judging,
      storage,
      clock: () => new Date(Date.now() + clock.offsetMs),
    });
    await app.ready();
    return { app, database };
  };
  const a = await start(first);
  const b = await start(second);

  return {
    a,
    b,
    chain,
    escrowKeys,
    storage,
    clock,
    async close() {
      await a.app.close();
      await b.app.close();
      await chain.close();
      // The second pool closes first: the first one's close drops the cloned database.
      await second.close();
      await first.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
