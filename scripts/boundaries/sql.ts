import path from 'node:path';
import { isInside, isTest, type Layout, moduleOf, parse, shown, sourceFiles, target } from './source';

/** Packages that talk SQL: only the files below import their code. */
const SQL_PACKAGES = /^(drizzle-orm|pg|postgres|@electric-sql\/pglite)(\/|$)/;

/**
 * The database adapter's files that hold SQL (docs/decisions/078-boundary-rules.md), each with why it
 * is not a feature's repo. Any other file of src/server/db is held to the rule like the rest of the
 * server: a new file here with SQL is a decision, written into this list.
 */
export const DB_ADAPTER: Readonly<Record<string, string>> = {
  'client.ts': 'the connection: opening PGlite or PostgreSQL, migrating, the `DbOrTx` handle',
  'pglite-drizzle-client.ts': 'Drizzle over an embedded PGlite',
  'pglite-template.ts': 'the migrated PGlite template a new data folder starts from',
  'schema.ts': 'the tables, shared by every repo',
  'factories.ts': 'the row builders of the demo seed and the API tests (valid rows made one way)',
  'chain-identity-repo.ts': 'which chain the data folder belongs to: read at start-up, before any feature',
  'refunded-columns.ts': 'the refunded amount of a dare, one SQL expression read by several features’ repos',
  'wallet-contributions.ts':
    'what each wallet put into a dare, one SQL read model shared by several features’ repos',
};

/**
 * Server modules outside src/server/db that talk to PostgreSQL itself rather than to a table: no
 * repo could hold what they do, each with why.
 */
export const CONNECTION_SQL: Readonly<Record<string, string>> = {
  'instance-bus.ts':
    'LISTEN/NOTIFY between instances on PostgreSQL: a connection of its own that reads and writes no table',
  'jobs/job-lock.ts':
    'a session-level advisory lock held on one pooled connection for a job’s run: reads and writes no table',
};

/** A repo file: `repo.ts` or anything in a `repo/` folder, wherever it sits below `dir`. */
function isRepoFile(inDir: string): boolean {
  const parts = inDir.split('/');
  return parts.at(-1)!.replace(/\.tsx?$/, '') === 'repo' || parts.slice(0, -1).includes('repo');
}

/**
 * SQL only in repos (docs/decisions/019-feature-layers.md, 078-boundary-rules.md), over every file of
 * src/server (unit tests left out: they may import whatever they test). SQL may be written only by
 * a repo file (`repo.ts` or `repo/`, in a feature or in a server module that owns its tables, as
 * prepared-transactions, ledger and demo do), by the database adapter's files listed in DB_ADAPTER,
 * and by the two connection-level modules in CONNECTION_SQL.
 * No other file imports drizzle-orm, a database driver or the schema for its values (types are
 * fine: they run no query), nor starts a query on a database handle. This is not an import rule
 * (a handle needs no import), so it is ours rather than dependency-cruiser's.
 */
export function sqlProblems(at: Layout): string[] {
  const problems: string[] = [];
  const schema = path.join(at.server, 'db', 'schema');
  const dbDir = path.join(at.server, 'db');

  for (const file of sourceFiles(at.server)) {
    if (isTest(file)) continue;
    const inServer = path.relative(at.server, file).split(path.sep).join('/');
    if (isRepoFile(inServer)) continue;
    if (path.dirname(file) === dbDir && path.basename(file) in DB_ADAPTER) continue;
    if (inServer in CONNECTION_SQL) continue;
    const { imports, queries } = parse(file);
    const where = (line: number) => `${shown(at, file)}:${line}`;

    for (const query of queries)
      problems.push(
        `${where(query.line)} runs a query (${query.text}): sql-only-in-repos: SQL lives in a repo file (repo.ts or repo/) of the module that owns it, or in a database adapter file listed in scripts/boundaries/sql.ts.`,
      );

    for (const { specifier, typeOnly, line } of imports) {
      if (typeOnly) continue;
      const to = target(at, file, specifier);
      const module = to === null ? null : moduleOf(to);
      const isSchema = module !== null && (module === schema || isInside(schema, module));
      if (SQL_PACKAGES.test(specifier) || isSchema)
        problems.push(
          `${where(line)} imports ${specifier}: sql-only-in-repos: only a repo file (repo.ts or repo/) or a database adapter file listed in scripts/boundaries/sql.ts writes SQL; move the query there.`,
        );
    }
  }
  return problems;
}
