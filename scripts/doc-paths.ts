/**
 * Every repository path a document names exists (scripts/check-doc-paths.ts, `npm run check`).
 *
 * The documents: README.md and every docs/**\/*.md (the decision records included). What counts as
 * a path a document names, outside fenced code blocks (commands, trees, sample output):
 * - a Markdown link's or image's target that is not a URL (`scheme:`) or an anchor alone, resolved
 *   from the document's own folder (as a browser or GitHub does), its `#anchor` dropped;
 * - an inline code span that is one word starting with a top-level folder of the repository
 *   (`src/`, `test/`, `e2e/`, `scripts/`, `bench/`, `docs/`, `program/`, `.ci/`) or naming one of
 *   its top-level files (`package.json`, `.env.example`, …), resolved from the repository's root;
 * - a word in prose (not in a link) starting with one of those folders (`see src/server/app.ts.`),
 *   resolved from the root.
 * A trailing `:line`, `#anchor`, `()` or punctuation is dropped, and an ellipsis with what follows
 * it. A part written as a placeholder (`<feature>`) or a wildcard (`*`, `**`) matches any existing
 * name; with a choice (`{routes,service}.ts`) each of its names must exist. A path the root
 * .gitignore ignores (made by running something) is not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's top-level folders whose paths the code spans of a document are checked for. */
export const CHECKED_FOLDERS = ['src', 'test', 'e2e', 'scripts', 'bench', 'docs', 'program', '.ci'];
/** The repository's top-level files a code span may name alone. */
export const CHECKED_FILES = [
  'README.md',
  'package.json',
  'package-lock.json',
  '.env.example',
  '.gitignore',
  'biome.json',
  'tsconfig.json',
  'vite.config.ts',
  'vitest.config.ts',
  'drizzle.config.ts',
];

/** The documents checked: README.md and docs/**\/*.md, relative to the root. */
export function documents(root: string): string[] {
  const found: string[] = [];
  if (existsSync(path.join(root, 'README.md'))) found.push('README.md');
  const walk = (dir: string) => {
    const full = path.join(root, dir);
    if (!existsSync(full)) return;
    for (const entry of readdirSync(full, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found;
}

/** A document's text with fenced code blocks blanked (their lines kept, so line numbers hold). */
function withoutFences(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker[0] as string;
      return '';
    }
    if (fence !== null) {
      if (marker?.startsWith(fence)) fence = null;
      return '';
    }
    return line;
  });
}

interface Named {
  line: number;
  /** As written in the document. */
  written: string;
  /** The path relative to the repository's root (posix separators). */
  target: string;
}

const isRootPath = (word: string) =>
  CHECKED_FILES.includes(word) || CHECKED_FOLDERS.some((folder) => word.startsWith(`${folder}/`));

/** A Markdown link or image: `[text](target "title")`; the target is group 1. */
const LINK = /!?\[(?:[^\]]|\][^(])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

const PROSE_PATH = new RegExp(
  `(?<![\\w/.@~-])((?:${CHECKED_FOLDERS.map((folder) => folder.replace('.', '\\.')).join('|')})/[^\\s)\\]'",;]*)`,
  'g',
);

/** Drops what follows a path in prose: `…` and after, `:12`, `:12-30`, `#anchor`, `()`, closing punctuation. */
function bare(word: string): string {
  return word
    .replace(/(…|\.\.\.).*$/, '')
    .replace(/#.*$/, '')
    .replace(/(:\d+(-\d+)?)+$/, '')
    .replace(/\(\)$/, '')
    .replace(/[.,;:]+$/, '');
}

/** The paths one document names (see the header). */
export function pathsNamed(document: string, text: string): Named[] {
  const named: Named[] = [];
  const folder = path.posix.dirname(document);
  const lines = withoutFences(text);
  // A paragraph at a time: a code span or link may run over a line break, never past a blank line.
  for (let first = 0; first < lines.length; first++) {
    if ((lines[first] as string).trim() === '') continue;
    let last = first;
    while (last + 1 < lines.length && (lines[last + 1] as string).trim() !== '') last++;
    const paragraph = lines.slice(first, last + 1).join('\n');
    const start = first;
    const lineAt = (offset: number) => start + 1 + (paragraph.slice(0, offset).match(/\n/g)?.length ?? 0);
    first = last;
    // Code spans first (blanked after), then links and prose paths in what is left.
    const rest = paragraph.replace(
      /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,
      (whole, _ticks, inner: string, offset: number) => {
        const span = inner.trim();
        const word = bare(span);
        if (!/\s/.test(span) && isRootPath(word))
          named.push({ line: lineAt(offset), written: span, target: path.posix.normalize(word) });
        return whole.replace(/[^\n]/g, ' ');
      },
    );
    // A link's text is what the reader sees; its target is checked below.
    const prose = rest.replace(LINK, (whole) => whole.replace(/[^\n]/g, ' '));
    for (const match of prose.matchAll(PROSE_PATH)) {
      const word = bare(match[1] as string);
      named.push({ line: lineAt(match.index), written: word, target: path.posix.normalize(word) });
    }
    for (const match of rest.matchAll(LINK)) {
      const href = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) continue;
      const target = path.posix.normalize(path.posix.join(folder, decodeURI(href.replace(/[#?].*$/, ''))));
      if (target === '.' || target === '') continue;
      named.push({ line: lineAt(match.index), written: href, target });
    }
  }
  return named;
}

/** `a/{b,c/d}.ts` as `a/b.ts` and `a/c/d.ts` (every choice, each one level deep). */
export function expandChoices(target: string): string[] {
  const choice = /\{([^{}]*)\}/.exec(target);
  if (!choice) return [target];
  const before = target.slice(0, choice.index);
  const after = target.slice(choice.index + choice[0].length);
  return (choice[1] as string).split(',').flatMap((name) => expandChoices(`${before}${name}${after}`));
}

const escapeRegExp = (text: string) => text.replace(/[.+?^$()[\]\\|{}]/g, '\\$&');

/** A path's part written with a placeholder (`<feature>`) or wildcard (`*`), as a pattern over names. */
function partPattern(part: string): RegExp | null {
  if (!/[<*]/.test(part)) return null;
  const source = part
    .split(/(<[^>]*>|\*)/)
    .map((piece) => (piece === '*' || /^<[^>]*>$/.test(piece) ? '.+' : escapeRegExp(piece)))
    .join('');
  return new RegExp(`^${source}$`);
}

const isDirectory = (at: string) => existsSync(at) && statSync(at).isDirectory();

/** `at` and every folder under it (for `**`). */
function foldersUnder(at: string): string[] {
  if (!isDirectory(at)) return [];
  return [
    at,
    ...readdirSync(at, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => foldersUnder(path.join(at, entry.name))),
  ];
}

/** Whether one path (no choices; parts possibly placeholders, `*` or `**`) names something under root. */
function existsOne(root: string, target: string): boolean {
  let candidates = [root];
  for (const part of target.split('/').filter((part) => part !== '')) {
    const pattern = partPattern(part);
    const next = new Set<string>();
    for (const at of candidates) {
      if (part === '**') for (const folder of foldersUnder(at)) next.add(folder);
      else if (pattern === null) {
        if (existsSync(path.join(at, part))) next.add(path.join(at, part));
      } else if (isDirectory(at))
        for (const name of readdirSync(at)) if (pattern.test(name)) next.add(path.join(at, name));
    }
    if (next.size === 0) return false;
    candidates = [...next];
  }
  return true;
}

/** Whether `target` (relative to root) names what exists: with choices (`{a,b}`), each of them. */
export function exists(root: string, target: string): boolean {
  return expandChoices(target).every((one) => existsOne(root, one));
}

/**
 * The root .gitignore's patterns as a test: a path the repository ignores is made by running
 * something (a deploy's keypair, the data folder) and is not checked. Handles the forms .gitignore
 * uses here: `name`, `folder/`, `/anchored`, `a/*.json`.
 */
export function ignoredBy(root: string): (target: string) => boolean {
  const file = path.join(root, '.gitignore');
  if (!existsSync(file)) return () => false;
  const patterns = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'))
    .map((line) => {
      const body = line.replace(/^\//, '').replace(/\/$/, '');
      const anchored = line.replace(/\/$/, '').includes('/');
      const source = body
        .split('/')
        .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
        .join('/');
      return new RegExp(`${anchored ? '^' : '(^|/)'}${source}(/|$)`);
    });
  return (target) => patterns.some((pattern) => pattern.test(target));
}

export interface DocPathsResult {
  problems: string[];
  documents: number;
  paths: number;
}

/** A document's path relative to the root, and its text. */
export interface DocumentText {
  document: string;
  text: string;
}

/** Checks the given documents against what exists under `root`. */
export function checkDocuments(root: string, docs: DocumentText[]): DocPathsResult {
  const problems: string[] = [];
  const ignored = ignoredBy(root);
  let paths = 0;
  for (const { document, text } of docs) {
    for (const { line, written, target } of pathsNamed(document, text)) {
      paths++;
      if (target === '..' || target.startsWith('../')) {
        problems.push(`${document}:${line}: ${written}: outside the repository`);
        continue;
      }
      if (ignored(target)) continue;
      const missing = expandChoices(target).filter((one) => !existsOne(root, one));
      if (missing.length > 0) problems.push(`${document}:${line}: ${written}: no ${missing.join(', no ')}`);
    }
  }
  return { problems, documents: docs.length, paths };
}

/**
 * Checks every document under `root`: each path it names (`document:line: path: no <what is
 * missing>`), and each decision record's title, status line and row in the index.
 */
export function checkDocPaths(root: string): DocPathsResult {
  const docs = readDocuments(root);
  const result = checkDocuments(root, docs);
  return { ...result, problems: [...result.problems, ...checkRecords(docs)] };
}

/** README.md and docs/**\/*.md under `root`, read. */
export function readDocuments(root: string): DocumentText[] {
  return documents(root).map((document) => ({
    document,
    text: readFileSync(path.join(root, document), 'utf8'),
  }));
}

/** The status line every decision record has under its title (docs/decisions/README.md). */
export const RECORD_STATUS =
  /^Status: \*\*(accepted|superseded)\*\*(?: by \[\d{3}\]\(\d{3}-[a-z0-9-]+\.md\))? \(\d{4}-\d{2}-\d{2}\)\./;

/**
 * Every decision record starts with `# NNN — Title`, then a blank line and its status line, and
 * the index (docs/decisions/README.md) links it. Each problem names the record.
 */
export function checkRecords(docs: DocumentText[]): string[] {
  const problems: string[] = [];
  const index = docs.find((doc) => doc.document === 'docs/decisions/README.md')?.text ?? '';
  for (const { document, text } of docs) {
    const name = /^docs\/decisions\/((\d{3})-[^/]+\.md)$/.exec(document);
    if (!name) continue;
    const [title = '', blank = '', status = ''] = text.split('\n');
    if (!title.startsWith(`# ${name[2]} — `))
      problems.push(`${document}:1: the title must start with "# ${name[2]} — "`);
    if (blank !== '' || !RECORD_STATUS.test(status))
      problems.push(
        `${document}:3: no status line under the title: "Status: **accepted** (YYYY-MM-DD)." or "Status: **superseded** by [NNN](NNN-….md) (YYYY-MM-DD)."`,
      );
    if (!index.includes(`](${name[1]})`))
      problems.push(`${document}: not in the index (docs/decisions/README.md)`);
  }
  return problems;
}
