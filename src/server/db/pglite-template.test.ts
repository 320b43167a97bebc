import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client';
import { hasClusterTemplate, writeClusterTemplate } from './pglite-template';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function systemIdentifier(dataDir: string): Promise<string> {
  const database = await openPglite({ dataDir });
  try {
    await database.migrate();
    const { rows } = await database.pglite!.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    return rows[0]!.id;
  } finally {
    await database.close();
  }
}

describe('PGlite cluster template', () => {
  it('starts every new data folder from the one empty cluster, which then lives on its own', async () => {
    // `npm install` made it; a checkout installed with --ignore-scripts makes it here.
    if (!hasClusterTemplate()) await writeClusterTemplate();
    const [a, b] = [0, 1].map(() => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-template-'));
      dirs.push(dir);
      return path.join(dir, 'pglite');
    });
    // initdb gives every cluster an identifier of its own: copies of one template share it.
    expect(await systemIdentifier(a!)).toBe(await systemIdentifier(b!));
    expect(existsSync(path.join(a!, 'PG_VERSION'))).toBe(true);
    // The copy arrives migrated: the journal's every migration is recorded before any runs here.
    const journal = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const fresh = path.join(mkdtempSync(path.join(os.tmpdir(), 'darepool-template-')), 'pglite');
    dirs.push(path.dirname(fresh));
    const copied = await openPglite({ dataDir: fresh });
    const { rows } = await copied.pglite!.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    await copied.close();
    expect(rows[0]!.n).toBe(journal.entries.length);
    // Reopened, a folder is its own database: what was written stays.
    const reopened = await openPglite({ dataDir: a! });
    await reopened.pglite!.exec('create table kept (x int); insert into kept values (7)');
    await reopened.close();
    const again = await openPglite({ dataDir: a! });
    expect((await again.pglite!.query('select x from kept')).rows).toEqual([{ x: 7 }]);
    await again.close();
  }, 120_000);
});
