import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocPaths, checkDocuments, checkRecords, pathsNamed, readDocuments } from './doc-paths';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the docs-path check on the real repository', () => {
  it('finds every path README.md and docs/**/*.md name (the decision records included)', () => {
    const result = checkDocPaths(ROOT);
    expect(result.problems).toEqual([]);
    expect(result.documents).toBeGreaterThan(40);
    expect(result.paths).toBeGreaterThan(300);
  });

  it('fails a planted decision record naming a path that is gone, beside the real ones', () => {
    const planted = {
      document: 'docs/decisions/999-planted.md',
      text: [
        '# 999 — Planted',
        '',
        'Status: **accepted** (2026-11-29). The relay is in `src/server/chain/relay.ts` and',
        '`src/server/features/payments/credit-payment.ts`, see [045](045-one-relay.md) and',
        '[a record never written](004-nothing.md); the seed moved out of src/server/db/seed.ts.',
      ].join('\n'),
    };
    const { problems } = checkDocuments(ROOT, [...readDocuments(ROOT), planted]);
    expect(problems.filter((problem) => !problem.startsWith(planted.document))).toEqual([]);
    expect(problems).toEqual([
      'docs/decisions/999-planted.md:4: src/server/features/payments/credit-payment.ts: no src/server/features/payments/credit-payment.ts',
      'docs/decisions/999-planted.md:5: src/server/db/seed.ts: no src/server/db/seed.ts',
      'docs/decisions/999-planted.md:5: 004-nothing.md: no docs/decisions/004-nothing.md',
    ]);
  });
});

describe('every decision record has a status line and a row in the index', () => {
  const docs = readDocuments(ROOT);
  const record = (document: string, text: string) => checkRecords([...docs, { document, text }]);

  it('holds for the real records', () => {
    expect(checkRecords(docs)).toEqual([]);
  });

  it('fails a record with no status line, a wrong title, or no row in the index', () => {
    expect(record('docs/decisions/998-no-status.md', '# 998 — No status\n\nAsked for: nothing.\n')).toEqual([
      'docs/decisions/998-no-status.md:3: no status line under the title: "Status: **accepted** (YYYY-MM-DD)." or "Status: **superseded** by [NNN](NNN-….md) (YYYY-MM-DD)."',
      'docs/decisions/998-no-status.md: not in the index (docs/decisions/README.md)',
    ]);
    expect(record('docs/decisions/997-title.md', '# Title\n\nStatus: accepted.\n')).toHaveLength(3);
  });

  it('takes both status forms, and a record the index links', () => {
    const index = docs.find((doc) => doc.document === 'docs/decisions/README.md');
    const withRow = docs.map((doc) =>
      doc === index ? { ...doc, text: `${doc.text}\n| 996 | [x](996-x.md) | accepted |\n` } : doc,
    );
    for (const status of [
      'Status: **accepted** (2026-11-29). Asked for: a row.',
      'Status: **superseded** by [021](021-money-on-the-program.md) (2026-11-22).',
    ])
      expect(
        checkRecords([...withRow, { document: 'docs/decisions/996-x.md', text: `# 996 — X\n\n${status}\n` }]),
      ).toEqual([]);
  });
});

describe('what counts as a path a document names', () => {
  let root: string;
  const write = (file: string, text = '') => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  const problemsOf = (text: string) => checkDocuments(root, [{ document: 'docs/guide.md', text }]).problems;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'darepool-doc-paths-'));
    write('src/server/features/payments/routes.ts');
    write('src/server/features/payments/service.ts');
    write('src/server/features/dares/routes.ts');
    write('docs/decisions/001-first.md', '# 001');
    write('package.json', '{}');
    write('.gitignore', 'data/\nprogram/build/*.json\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes paths that exist, in code spans, links and prose, trimmed of lines and anchors', () => {
    expect(
      problemsOf(
        [
          'See `src/server/features/payments/routes.ts:12`, `package.json` and',
          '[the first record](decisions/001-first.md#why) ([up](../package.json)).',
          'In prose: src/server/features/dares/routes.ts. And `src/server/features/<feature>/routes.ts`,',
          '`src/server/features/payments/{routes,service}.ts`, `src/**/service.ts`, src/server/features/…/x.ts.',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('fails each form naming what does not exist, saying which part of a choice is missing', () => {
    expect(
      problemsOf(
        [
          '`src/server/features/payments/repo.ts`',
          '',
          '[gone](decisions/002-gone.md) and the prose path src/server/gone/',
          '',
          '`src/server/features/payments/{routes,repo}.ts` and `src/server/features/<f>/repo.ts`',
          '',
          '[out](../../elsewhere.md)',
        ].join('\n'),
      ),
    ).toEqual([
      'docs/guide.md:1: src/server/features/payments/repo.ts: no src/server/features/payments/repo.ts',
      'docs/guide.md:3: src/server/gone/: no src/server/gone/',
      'docs/guide.md:3: decisions/002-gone.md: no docs/decisions/002-gone.md',
      'docs/guide.md:5: src/server/features/payments/{routes,repo}.ts: no src/server/features/payments/repo.ts',
      'docs/guide.md:5: src/server/features/<f>/repo.ts: no src/server/features/<f>/repo.ts',
      'docs/guide.md:7: ../../elsewhere.md: outside the repository',
    ]);
  });

  it('leaves out fenced blocks, commands, URLs, other words and what .gitignore ignores', () => {
    expect(
      problemsOf(
        [
          '```',
          'src/server/not-here.ts',
          '```',
          '',
          '`npm run check -- src/server/not-here.ts`, [a site](https://example.com/src/x.ts),',
          '`chain/relay.ts` (not from the root), `DATA_DIR/chain`, `program/build/program-keypair.json`,',
          'data/videos/ and [anchor](#section).',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('reads a code span broken over two lines as a command, not a path', () => {
    const named = pathsNamed('README.md', '`NODE_OPTIONS=x\nnpm start` and `e2e/start.e2e.ts`');
    expect(named).toEqual([{ line: 2, written: 'e2e/start.e2e.ts', target: 'e2e/start.e2e.ts' }]);
  });

  it('makes the npm run check step exit 1 listing the missing path', () => {
    write('README.md', 'Start at `src/server/main.ts`.\n');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts', 'check-doc-paths.ts'), root],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('README.md:1: src/server/main.ts: no src/server/main.ts');
  }, 120_000);
});
