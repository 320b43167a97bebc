import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The folders the SQL rule talks about, under one repository root (a temporary copy in tests). */
export interface Layout {
  root: string;
  server: string;
  contract: string;
  web: string;
}

export function layout(root: string): Layout {
  return {
    root,
    server: path.join(root, 'src/server'),
    contract: path.join(root, 'src/contract'),
    web: path.join(root, 'src/web'),
  };
}

/** A path as the problems print it: from the repository root, with forward slashes. */
export const shown = (at: Layout, file: string) => path.relative(at.root, file).split(path.sep).join('/');

export const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** `inner` is `outer` or lies below it. */
export function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Every .ts/.tsx file below `dir`, tests included (each rule decides whether tests count). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return sourceFiles(full);
      return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
    });
}

export interface Import {
  specifier: string;
  /** Every name it brings is a type: nothing of the module runs. */
  typeOnly: boolean;
  line: number;
}

export interface ParsedFile {
  imports: Import[];
  /** Drizzle calls on a database handle (`db.select`, `tx.insert`, `db.execute`, ...). */
  queries: { text: string; line: number }[];
}

/** What a query is started with; `transaction` is left out: a service opens transactions. */
const QUERY_METHODS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'query',
  '$client',
  '$count',
  '$with',
  'with',
]);
/**
 * The names a database, transaction or driver handle goes by: `db`, `tx`, `trx`, `client`,
 * `database`, `conn(ection)`, `pool`, `executor`, `pg`, and any name ending in one of them
 * (`readDb`, `outerTx`, `pgClient`), as a variable or a property (`deps.database.db`, `this.client`).
 */
const HANDLE_NAME =
  /^(db|tx|trx|client|database|conn|connection|pool|executor|pg)$|(Db|Tx|Trx|Client|Database|Pool)$/;

function isHandle(node: ts.Expression): boolean {
  if (ts.isIdentifier(node)) return HANDLE_NAME.test(node.text);
  if (ts.isPropertyAccessExpression(node)) return HANDLE_NAME.test(node.name.text);
  return false;
}

const allTypes = (elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>) =>
  elements.length > 0 && elements.every((element) => element.isTypeOnly);

/** Several rules read the same file: parsed once per content (a test rewrites files between checks). */
const cache = new Map<string, { text: string; parsed: ParsedFile }>();

/** Imports (static, re-exports, dynamic, `import('x').T`) and database calls of one file. */
export function parse(file: string): ParsedFile {
  const text = readFileSync(file, 'utf8');
  const cached = cache.get(file);
  if (cached?.text === text) return cached.parsed;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const parsed: ParsedFile = { imports: [], queries: [] };
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean, node: ts.Node) => {
    if (specifier && ts.isStringLiteralLike(specifier))
      parsed.imports.push({ specifier: specifier.text, typeOnly, line: lineOf(node) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            allTypes(bindings.elements)));
      add(node.moduleSpecifier, typeOnly, node);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      add(
        node.moduleSpecifier,
        node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && allTypes(clause.elements)),
        node,
      );
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal as ts.Expression, true, node);
    } else if (
      ts.isPropertyAccessExpression(node) &&
      QUERY_METHODS.has(node.name.text) &&
      isHandle(node.expression)
    ) {
      parsed.queries.push({ text: node.getText(source).replace(/\s+/g, ''), line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  cache.set(file, { text, parsed });
  return parsed;
}

/** Where a specifier points (without extension), or null for a package. */
export function target(at: Layout, from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier);
  if (specifier.startsWith('#server/')) return path.join(at.server, specifier.slice('#server/'.length));
  if (specifier.startsWith('#contract/')) return path.join(at.contract, specifier.slice('#contract/'.length));
  if (specifier.startsWith('#web/')) return path.join(at.web, specifier.slice('#web/'.length));
  return null;
}

/** The source file a target names: `x.ts`, `x.tsx`, `x/index.ts(x)`, or as written; null if none. */
export function sourceFile(targetPath: string): string | null {
  const candidates = [
    `${targetPath}.ts`,
    `${targetPath}.tsx`,
    path.join(targetPath, 'index.ts'),
    path.join(targetPath, 'index.tsx'),
    targetPath,
  ];
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return null;
}

/** The module a target is, as a path without extension (`.../payouts/settle`), existing or not. */
export function moduleOf(targetPath: string): string {
  const file = sourceFile(targetPath) ?? targetPath;
  return file.replace(/\.(tsx?|jsx?|mjs)$/, '');
}
