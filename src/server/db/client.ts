import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { drizzleClientFor } from './pglite-drizzle-client';
import { copyClusterTemplate, readClusterTemplate } from './pglite-template';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repos accept either the database or an open transaction, so services decide the unit of work. */
export type DbOrTx = Db | Tx;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** What the start-up log prints: a folder for PGlite, the host/db (never the password) otherwise. */
  description: string;
  /** The node-postgres pool (PostgreSQL only): LISTEN/NOTIFY and tooling need raw clients. */
  pool?: pg.Pool;
  /** The PGlite instance (embedded only). */
  pglite?: PGlite;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function describePostgresUrl(url: string): string {
  const parsed = new URL(url);
  return `postgresql://${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

/**
 * PGlite's buffer pool. Its default, 128 MB, took ~0.5 s of every start to set up (the whole pool
 * is initialised in WebAssembly memory), twice what a start of PGlite costs otherwise; the embedded
 * database is ~10 MB, catalogs included, and pages beyond the pool are read back from the OS's file
 * cache. Operators with more data run PostgreSQL (DATABASE_URL). Decision 024.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
}): Promise<Database> {
  if (options.dataDir) mkdirSync(path.dirname(options.dataDir), { recursive: true });
  // A new database (in memory, or a new data folder) starts from the empty cluster `npm install`
  // made, when there is one.
  const isNew = options.dataDir === undefined || !existsSync(path.join(options.dataDir, 'PG_VERSION'));
  const copied =
    isNew && !options.loadDataDir && options.dataDir !== undefined && copyClusterTemplate(options.dataDir);
  const loadDataDir = options.loadDataDir ?? (isNew && !copied ? readClusterTemplate() : undefined);
  const pglite = new PGlite({
    dataDir: options.dataDir,
    loadDataDir,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await pglite.waitReady;
  const db = drizzlePglite({ client: drizzleClientFor(pglite), schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    description: options.dataDir ? `PGlite (embedded) in ${options.dataDir}` : 'PGlite (embedded, in memory)',
    pglite,
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pglite.close(),
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    description: `PostgreSQL ${describePostgresUrl(url)}`,
    pool,
    migrate: async () => {
      // Several instances may start at once against one database: one migrates, the others wait.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(7243501)');
        await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock(7243501)').catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
  };
}
