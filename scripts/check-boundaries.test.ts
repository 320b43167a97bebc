import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ONLY_SCRIPTS } from './boundaries/chain-only';
import { checkBoundaries } from './boundaries/index';

const ROOT = path.resolve(import.meta.dirname, '..');
let copy: string;
/** What each planted file held before (null: it did not exist), restored after every test. */
const originals = new Map<string, string | null>();

/** Appends `code` to a file of the copy (creating it): the violation sits beside real code. */
function plant(file: string, code: string): void {
  const full = path.join(copy, file);
  const before = existsSync(full) ? readFileSync(full, 'utf8') : null;
  if (!originals.has(full)) originals.set(full, before);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, `${before ?? ''}\n${code}\n`);
}

const problems = () => checkBoundaries(copy).problems;
const problemsAbout = (file: string) => problems().filter((problem) => problem.startsWith(`${file}:`));

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'darepool-boundaries-'));
  // Only what the rules read: the TypeScript sources they follow and the chain-only scripts.
  const sources = (from: string) => statSync(from).isDirectory() || /\.tsx?$/.test(from);
  for (const dir of ['src/server', 'src/web', 'src/contract'])
    cpSync(path.join(ROOT, dir), path.join(copy, dir), { recursive: true, filter: sources });
  for (const script of CHAIN_ONLY_SCRIPTS) cpSync(path.join(ROOT, script), path.join(copy, script));
});

afterEach(() => {
  for (const [file, before] of originals) {
    if (before === null) rmSync(file);
    else writeFileSync(file, before);
  }
  originals.clear();
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

// The first check loads TypeScript and reads every file; a loaded machine needs more than 5 s.
describe('check-boundaries on a copy of the repository', { timeout: 60_000 }, () => {
  it('passes the copy as it is', () => {
    expect(problems()).toEqual([]);
  });

  it('fails a Drizzle query in a feature file that is not its repo', () => {
    const file = 'src/server/features/dares/dare-view.ts';
    plant(
      file,
      [
        "import { eq } from 'drizzle-orm';",
        "import { dares } from '#server/db/schema';",
        'export const planted = (db: DbOrTx) => db.select().from(dares).where(eq(dares.id, 1));',
      ].join('\n'),
    );
    const found = problemsAbout(file);
    expect(found.some((problem) => problem.includes('imports drizzle-orm'))).toBe(true);
    expect(found.some((problem) => problem.includes('imports #server/db/schema'))).toBe(true);
    expect(found.some((problem) => problem.includes('runs a query (db.select)'))).toBe(true);
  });

  it('fails a query on the database handle even with nothing imported for it, at any depth', () => {
    const file = 'src/server/features/dares/deep/planted.ts';
    plant(file, 'export const planted = (tx: any) => tx.query.users.findMany();');
    expect(problemsAbout(file)).toEqual([expect.stringContaining('runs a query (tx.query)')]);
  });

  it('fails a feature importing another feature’s internals, leaderboard/routes.ts -> payouts/settle.ts', () => {
    const file = 'src/server/features/leaderboard/routes.ts';
    plant(file, "import '#server/features/payouts/settle';");
    expect(problemsAbout(file)).toEqual([expect.stringContaining('payouts/settle is internal to payouts')]);
  });

  it('fails the same from a file deeper in the feature, and spares another feature’s service', () => {
    const file = 'src/server/features/leaderboard/deep/x.ts';
    plant(file, "import '#server/features/payouts/settle';\nimport '#server/features/payouts/service';");
    expect(problemsAbout(file)).toEqual([expect.stringContaining('payouts/settle is internal to payouts')]);
  });

  it('fails a web file at any depth importing another web feature, by alias or by path', () => {
    const file = 'src/web/features/dares/components/deep/x.ts';
    plant(
      file,
      [
        "import '#web/features/submissions/lib/author-name';",
        "import '../../../submissions/lib/author-name';",
      ].join('\n'),
    );
    const found = problemsAbout(file);
    expect(found).toHaveLength(2);
    for (const problem of found) expect(problem).toContain('imports no other feature (submissions)');
  });

  it('fails a relative ../ import in server code, and lets ./ stay', () => {
    const file = 'src/server/jobs/planted.ts';
    plant(file, "import '../errors';\nimport './job-lock';");
    expect(problemsAbout(file)).toEqual([
      `${file}:2 imports ../errors: server code imports server modules as #server/... and the contract as #contract/... (only ./ paths into its own folder stay relative).`,
    ]);
  });

  it('fails an import cycle between features, printing the imports that close it', () => {
    plant('src/server/features/payouts/service.ts', "import '#server/features/claims/service';");
    const cycle = problems().find((problem) =>
      problem.startsWith('Server features import each other in a cycle'),
    );
    expect(cycle).toContain('claims -> payouts -> claims');
    expect(cycle).toContain('src/server/features/payouts/service.ts imports #server/features/claims/service');
  });

  it('fails a chain-only script reaching the server’s config', () => {
    plant('scripts/guardian.ts', "import '#server/config';");
    expect(problems()).toEqual([
      expect.stringMatching(/^scripts\/guardian.ts reaches src\/server\/config.ts/),
    ]);
  });
});
