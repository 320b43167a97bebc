import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ONLY_SCRIPTS } from './boundaries/import-rules';

/**
 * `npm run check` on a copy of the repository (docs/decisions/078-boundary-rules.md): the copy as
 * it is passes; then every violation below is planted in it, each in a file of its own (or appended
 * to a real file), the boundary check runs once as `npm run check` runs it, and each planted file
 * must be named with the rule it breaks, the check exiting 1. Biome's rules the project relies on
 * (biome.json) are planted the same way and run through Biome itself.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
let copy: string;

/** Appends `code` to a file of the copy (creating it): the violation sits beside real code. */
function plant(file: string, code: string): void {
  const full = path.join(copy, file);
  const before = existsSync(full) ? readFileSync(full, 'utf8') : '';
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, `${before}\n${code}\n`);
}

/** scripts/check-boundaries.ts on the copy, as `npm run check` runs it. */
function runCheck(): { status: number | null; problems: string[]; out: string } {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts/check-boundaries.ts'), copy],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const problems = run.stderr
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block !== '' && !block.startsWith('check-boundaries:'));
  return { status: run.status, problems, out: run.stdout + run.stderr };
}

let clean: ReturnType<typeof runCheck>;
let planted: ReturnType<typeof runCheck>;
/** The problems naming this file (as the importer, the file holding SQL, or the script). */
const about = (file: string) =>
  planted.problems.filter((problem) => problem.startsWith(`${file}:`) || problem.startsWith(`${file} -> `));

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'darepool-boundaries-'));
  // What the rules read: the TypeScript sources (program/: a deploy test imports its linker;
  // test/support: the server's unit tests import it), the chain-only scripts, package.json (its
  // `imports` resolve #server/... and #test/...), and node_modules (linked) for the packages.
  const sources = (from: string) => statSync(from).isDirectory() || /\.(tsx?|css)$/.test(from);
  for (const dir of ['src/server', 'src/web', 'src/contract', 'program', 'test/support'])
    cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true, filter: sources });
  for (const file of [...CHAIN_ONLY_SCRIPTS, 'package.json', 'biome.json', 'tsconfig.json'])
    cpSync(path.join(ROOT, file), path.join(copy, file));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

  clean = runCheck();

  // --- SQL only in repos (scripts/boundaries/sql.ts)
  plant(
    'src/server/features/dares/dare-view.ts',
    [
      "import { eq } from 'drizzle-orm';",
      "import { dares } from '#server/db/schema';",
      'export const planted = (db: DbOrTx) => db.select().from(dares).where(eq(dares.id, 1));',
    ].join('\n'),
  );
  plant(
    'src/server/features/dares/deep/planted.ts',
    'export const planted = (tx: any) => tx.query.users.findMany();',
  );
  // A server folder outside features/, and a file of db/ that is not a listed adapter file.
  plant(
    'src/server/jobs/planted-sql.ts',
    "import { sql } from 'drizzle-orm';\nexport const planted = (db: any) => db.execute(sql`select 1`);",
  );
  plant('src/server/db/planted-read.ts', "import { users } from './schema';\nexport const planted = users;");
  // A handle named `client` (or ending in Client), in a feature and outside.
  plant(
    'src/server/features/leaderboard/routes.ts',
    'export const planted = (client: any) => client.select();',
  );
  plant('src/server/planted-client.ts', 'export const planted = (pgClient: any) => pgClient.execute();');
  // Spared: a repo file outside the features (as ledger/repo.ts), type-only schema imports.
  plant(
    'src/server/jobs/repo.ts',
    "import { count } from 'drizzle-orm';\nimport { users } from '#server/db/schema';\nexport const spared = (db: any) => db.select({ n: count() }).from(users);",
  );
  plant(
    'src/server/jobs/planted-types.ts',
    "import type { users } from '#server/db/schema';\nexport type T = typeof users;",
  );

  // --- import rules (dependency-cruiser, scripts/boundaries/import-rules.ts)
  plant(
    'src/server/features/leaderboard/deep/x.ts',
    "import '#server/features/payouts/settle';\nimport '#server/features/payouts/service';",
  );
  plant(
    'src/server/jobs/planted-internals.ts',
    "import '#server/features/payouts/settle';\nimport '#server/features/payouts/service';\nimport '#server/features/auth/user';",
  );
  plant('src/server/routes.ts', "import '#server/features/payouts/settle';");
  plant(
    'scripts/planted-admin.ts',
    "import '#server/features/auth/repo';\nimport '#server/features/auth/promote';",
  );
  plant('src/server/features/dares/routes.ts', "import './repo';");
  plant('src/server/features/leaderboard/repo.ts', "import '#server/features/payouts/repo';");
  plant('src/server/jobs/planted-climb.ts', "import '../errors';\nimport './job-lock';");
  plant('src/server/planted-web.ts', "import '#web/lib/dates';");
  plant('src/server/storage/planted-test-support.ts', "import '#test/support/storage/s3-server';");
  plant('src/server/storage/planted-test-support.test.ts', "import '#test/support/storage/s3-server';");
  plant('src/server/features/stats/planted-web.ts', "import '../../../web/lib/dates';");
  plant('src/contract/planted-drizzle.ts', "import { sql } from 'drizzle-orm';\nexport const planted = sql;");
  plant(
    'src/contract/planted-node.ts',
    "import { randomBytes } from 'node:crypto';\nexport const planted = randomBytes;",
  );
  plant('src/contract/planted-server.ts', "import '#server/errors';");
  plant('src/web/lib/planted-server.ts', "import '#server/errors';");
  plant(
    'src/web/features/dares/components/deep/x.ts',
    "import '#web/features/submissions/lib/author-name';\nimport '../../../submissions/lib/author-name';",
  );
  plant('src/web/features/dares/planted-path.ts', "import '../../lib/dates';\nimport '#web/lib/dates';");
  plant('src/web/components/planted-feature.ts', "import '#web/features/submissions/lib/author-name';");
  plant('src/server/features/payouts/service.ts', "import '#server/features/claims/service';");
  plant('scripts/guardian.ts', "import '#server/config';");
  plant('src/server/jobs/planted-missing.ts', "import '#server/no-such-module';");

  planted = runCheck();
}, 600_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run check’s boundaries on a copy of the repository', () => {
  it('passes the copy as it is', () => {
    expect(clean.problems).toEqual([]);
    expect(clean.status).toBe(0);
    expect(clean.out).toContain('check-boundaries:');
  });

  it('fails, exit 1, once the violations are planted', () => {
    expect(planted.status).toBe(1);
  });

  describe('sql-only-in-repos', () => {
    it('a Drizzle query, its imports and the schema in a feature file that is not its repo', () => {
      const found = about('src/server/features/dares/dare-view.ts');
      expect(found.some((p) => p.includes('imports drizzle-orm: sql-only-in-repos'))).toBe(true);
      expect(found.some((p) => p.includes('imports #server/db/schema: sql-only-in-repos'))).toBe(true);
      expect(found.some((p) => p.includes('runs a query (db.select): sql-only-in-repos'))).toBe(true);
    });

    it('a query on the handle with nothing imported for it, at any depth', () => {
      expect(about('src/server/features/dares/deep/planted.ts')).toEqual([
        expect.stringContaining('runs a query (tx.query): sql-only-in-repos'),
      ]);
    });

    it('SQL in a server folder outside features/, and in a db/ file that is not a listed adapter file', () => {
      const jobs = about('src/server/jobs/planted-sql.ts');
      expect(jobs).toHaveLength(2);
      for (const problem of jobs) expect(problem).toContain('sql-only-in-repos');
      expect(about('src/server/db/planted-read.ts')).toEqual([
        expect.stringContaining('imports ./schema: sql-only-in-repos'),
      ]);
    });

    it('a query on a handle named client, or ending in Client', () => {
      expect(about('src/server/features/leaderboard/routes.ts')).toEqual([
        expect.stringContaining('runs a query (client.select): sql-only-in-repos'),
      ]);
      expect(about('src/server/planted-client.ts')).toEqual([
        expect.stringContaining('runs a query (pgClient.execute): sql-only-in-repos'),
      ]);
    });

    it('spares a repo file outside the features and a type-only schema import', () => {
      expect(about('src/server/jobs/repo.ts')).toEqual([]);
      expect(about('src/server/jobs/planted-types.ts')).toEqual([]);
    });
  });

  it('feature-internals: another feature’s internals from a file at any depth; its service is fine', () => {
    expect(about('src/server/features/leaderboard/deep/x.ts')).toEqual([
      expect.stringMatching(/^\S+ -> src\/server\/features\/payouts\/settle\.ts: feature-internals: /),
    ]);
    expect(about('src/server/features/leaderboard/repo.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/features\/payouts\/repo\.ts: feature-internals: /),
    ]);
  });

  it('feature-internals-from-outside: a non-feature module importing internals; service and published modules are fine', () => {
    expect(about('src/server/jobs/planted-internals.ts')).toEqual([
      expect.stringMatching(
        /-> src\/server\/features\/payouts\/settle\.ts: feature-internals-from-outside: /,
      ),
    ]);
    expect(about('scripts/planted-admin.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/features\/auth\/repo\.ts: feature-internals-from-outside: /),
    ]);
    expect(about('src/server/routes.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/features\/payouts\/settle\.ts: routes-registers-features: /),
    ]);
  });

  it('routes-through-service: a routes.ts of a feature with a service importing its repo', () => {
    expect(about('src/server/features/dares/routes.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/features\/dares\/repo\.ts: routes-through-service: /),
    ]);
  });

  it('server-relative-climb: a ../ import in server code; ./ stays', () => {
    expect(about('src/server/jobs/planted-climb.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/errors\.ts: server-relative-climb: /),
    ]);
  });

  it('product-imports-test-support: product code importing test support; its tests may', () => {
    expect(about('src/server/storage/planted-test-support.ts')).toEqual([
      expect.stringMatching(/-> test\/support\/storage\/s3-server\.ts: product-imports-test-support: /),
    ]);
    expect(about('src/server/storage/planted-test-support.test.ts')).toEqual([]);
  });

  it('server-imports-web: server code importing the web app, by alias or by path', () => {
    expect(about('src/server/planted-web.ts')).toEqual([
      expect.stringMatching(/-> src\/web\/lib\/dates\.ts: server-imports-web: /),
    ]);
    const byPath = about('src/server/features/stats/planted-web.ts');
    expect(byPath.some((p) => /-> src\/web\/lib\/dates\.ts: server-imports-web: /.test(p))).toBe(true);
  });

  it('contract-imports-only-zod: the contract importing drizzle-orm, a Node built-in or server code', () => {
    expect(about('src/contract/planted-drizzle.ts')).toEqual([
      expect.stringMatching(/-> node_modules\/drizzle-orm\/\S+: contract-imports-only-zod: /),
    ]);
    expect(about('src/contract/planted-node.ts')).toEqual([
      expect.stringMatching(/-> (node:)?crypto: contract-imports-only-zod: /),
    ]);
    expect(about('src/contract/planted-server.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/errors\.ts: contract-imports-only-zod: /),
    ]);
  });

  it('web-imports-server, web-feature-imports-feature, web-feature-leaves-by-path, web-shared-imports-feature', () => {
    expect(about('src/web/lib/planted-server.ts')).toEqual([
      expect.stringMatching(/-> src\/server\/errors\.ts: web-imports-server: /),
    ]);
    const deep = about('src/web/features/dares/components/deep/x.ts');
    expect(deep.filter((p) => p.includes(': web-feature-imports-feature: '))).toHaveLength(1);
    expect(deep.every((p) => p.includes('-> src/web/features/submissions/lib/author-name.ts'))).toBe(true);
    expect(about('src/web/features/dares/planted-path.ts')).toEqual([
      expect.stringMatching(/-> src\/web\/lib\/dates\.ts: web-feature-leaves-by-path: /),
    ]);
    expect(about('src/web/components/planted-feature.ts')).toEqual([
      expect.stringMatching(
        /-> src\/web\/features\/submissions\/lib\/author-name\.ts: web-shared-imports-feature: /,
      ),
    ]);
  });

  it('a cycle between server features, printed with the imports that close it', () => {
    const cycle = planted.problems.find((p) => p.startsWith('Server features import each other in a cycle'));
    expect(cycle).toContain('claims -> payouts -> claims');
    expect(cycle).toContain('src/server/features/payouts/service.ts imports #server/features/claims/service');
  });

  it('chain-only-script: a chain-only script reaching the server’s config', () => {
    const found = about('scripts/guardian.ts');
    // One line for each module it reaches outside src/server/chain and src/contract, with the way.
    expect(found.some((p) => p.startsWith('scripts/guardian.ts -> src/server/config.ts '))).toBe(true);
    for (const problem of found) expect(problem).toContain(': chain-only-script: ');
  });

  it('not-to-unresolvable: an import of a module that does not exist', () => {
    expect(about('src/server/jobs/planted-missing.ts')).toEqual([
      expect.stringMatching(/-> #server\/no-such-module: not-to-unresolvable: /),
    ]);
  });
});

/**
 * Biome (biome.json): the rules the project relies on, each planted in the copy and linted by the
 * same binary and configuration `npm run check` uses.
 */
describe('npm run check’s Biome rules on a copy of the repository', () => {
  const biome = (files: string[]) =>
    spawnSync(
      path.join(ROOT, 'node_modules/.bin/biome'),
      ['check', '--vcs-enabled=false', '--max-diagnostics=none', ...files],
      { cwd: copy, encoding: 'utf8' },
    );

  it('passes the real files it is given', () => {
    const run = biome(['src/contract/money.ts', 'src/web/lib/dates.ts']);
    expect(run.stdout + run.stderr).not.toContain('×');
    expect(run.status).toBe(0);
  });

  const cases: { file: string; code: string; rule: string; says: string }[] = [
    {
      file: 'src/contract/biome-server.ts',
      code: "import { AppError } from '#server/errors';\nexport const planted = AppError;",
      rule: 'lint/style/noRestrictedImports',
      says: 'src/contract is what web and server agree on',
    },
    {
      file: 'src/web/features/dares/biome-server.ts',
      code: "import { AppError } from '#server/errors';\nexport const planted = AppError;",
      rule: 'lint/style/noRestrictedImports',
      says: 'The web app never imports server code',
    },
    {
      file: 'src/web/lib/biome-feature.ts',
      code: "import { authorName } from '#web/features/submissions/lib/author-name';\nexport const planted = authorName;",
      rule: 'lint/style/noRestrictedImports',
      says: 'lib and components are shared by every feature and import none',
    },
    {
      file: 'src/web/features/dares/biome-feature.ts',
      code: "import { authorName } from '#web/features/submissions/lib/author-name';\nexport const planted = authorName;",
      rule: 'lint/style/noRestrictedImports',
      says: 'A web feature imports no other feature',
    },
    {
      file: 'src/server/biome-recommended.ts',
      code: 'export const planted = (a: unknown, b: unknown) => a == b;',
      rule: 'lint/suspicious/noDoubleEquals',
      says: '',
    },
    {
      file: 'src/server/biome-format.ts',
      code: 'export const planted = "double quotes"',
      rule: 'format',
      says: '',
    },
  ];

  it.each(cases)('fails $rule in $file', ({ file, code, rule, says }) => {
    plantFresh(file, code);
    const run = biome([file]);
    const out = run.stdout + run.stderr;
    expect(run.status).not.toBe(0);
    expect(out).toContain(rule);
    expect(out).toContain(says);
  });

  function plantFresh(file: string, code: string): void {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    writeFileSync(path.join(copy, file), `${code}\n`);
  }
});
