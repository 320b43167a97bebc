import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '#server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite cluster as a folder: each test database starts as a copy of it. */
    pgliteTemplateDir: string;
    postgresTemplate: { adminUrl: string; database: string } | null;
  }
}

/** Swaps the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Migrates one template database per run; each test file clones it (PGlite: a copy of the migrated
 * data folder, opened where it lies as the server opens its own, which took about two thirds of
 * unpacking a dumpDataDir tarball into PGlite's in-memory file system; PostgreSQL: CREATE DATABASE
 * ... TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'darepool-api-'));
  const templateDir = path.join(tmp, 'template');
  const template = await openPglite({ dataDir: templateDir });
  await template.migrate();
  await template.close();
  project.provide('pgliteTemplateDir', templateDir);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let postgresTemplate: { adminUrl: string; database: string } | null = null;
  if (adminUrl) {
    const database = `darepool_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const templateDb = await openPostgres(withDatabase(adminUrl, database), 1);
    await templateDb.migrate();
    await templateDb.close();
    postgresTemplate = { adminUrl, database };
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    rmSync(tmp, { recursive: true, force: true });
    if (postgresTemplate) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${postgresTemplate.database}_c%`],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${postgresTemplate.database} WITH (FORCE)`);
      await admin.end();
    }
  };
}
