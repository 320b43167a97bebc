/**
 * The typecheck's three projects (docs/decisions/079-tsconfig-split-and-node-support.md): the web
 * project has no Node globals and the server project no DOM ones, so `npm run check` fails on
 * `process` in web code and `window` in server code; and every TypeScript file of the repository
 * belongs to a project (editors find its settings, the check reads it).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const PROJECTS = ['web', 'server', 'web-tests'] as const;
type Project = (typeof PROJECTS)[number];

function parsedConfig(project: Project): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, `tsconfig.${project}.json`), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`tsconfig.${project}.json did not parse`);
  expect(parsed.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n'))).toEqual([]);
  return parsed;
}

/**
 * The errors `source` gets as a file of `project` (at `file`, a path inside the project): the
 * project's options, libraries, global types and declaration files, with none of its other code.
 */
function errorsOf(project: Project, file: string, source: string): string[] {
  const { options, fileNames } = parsedConfig(project);
  // The project's own global declarations (its .d.ts files) come with it.
  const declarations = fileNames.filter((name) => name.endsWith('.d.ts'));
  const fileName = path.join(ROOT, file);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (path.resolve(name) === fileName ? source : readFile(name));
  host.fileExists = (name) => path.resolve(name) === fileName || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) =>
    path.resolve(name) === fileName
      ? ts.createSourceFile(name, source, languageVersion, true)
      : getSourceFile(name, languageVersion, onError, shouldCreate);
  const program = ts.createProgram({ rootNames: [...declarations, fileName], options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fileName))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

// A program loads the libraries and @solana/kit's types: seconds, more on a busy machine.
const SLOW = 120_000;

describe('the web project (the browser)', () => {
  const file = 'src/web/lib/planted-check.ts';

  it(
    'has the DOM and @solana/kit, and no Node: process, Buffer and node: modules are errors',
    () => {
      const errors = errorsOf(
        'web',
        file,
        [
          // @solana/kit's types import undici-types, which references all of Node's types.
          "import { address } from '@solana/kit';",
          "import { readFileSync } from 'node:fs';",
          'export const fromKit = address;',
          'export const title = document.title + window.location.href + localStorage.length;',
          'export const env = process.env.SECRET;',
          "export const bytes = Buffer.from('x');",
          'export const read = readFileSync;',
        ].join('\n'),
      );
      expect(errors).toEqual([
        "Cannot find module 'node:fs' or its corresponding type declarations.",
        expect.stringContaining("Cannot find name 'process'"),
        expect.stringContaining("Cannot find name 'Buffer'"),
      ]);
    },
    SLOW,
  );

  it(
    'keeps import.meta.env (Vite) and the contract',
    () => {
      expect(
        errorsOf(
          'web',
          file,
          [
            "import { solToLamports } from '#contract/money';",
            'export const dev: boolean = import.meta.env.DEV;',
            "export const lamports: bigint = solToLamports('1');",
          ].join('\n'),
        ),
      ).toEqual([]);
    },
    SLOW,
  );
});

describe('the server project (Node)', () => {
  const file = 'src/server/planted-check.ts';

  it(
    'has Node and no DOM: window, document and localStorage are errors',
    () => {
      const errors = errorsOf(
        'server',
        file,
        [
          'export const href = window.location.href;',
          'export const title = document.title;',
          "export const stored = localStorage.getItem('token');",
          'export const env = process.env.SECRET;',
          "export const bytes = Buffer.from('x');",
        ].join('\n'),
      );
      expect(errors).toEqual([
        expect.stringContaining("Cannot find name 'window'"),
        expect.stringContaining("Cannot find name 'document'"),
        expect.stringContaining("Cannot find name 'localStorage'"),
      ]);
    },
    SLOW,
  );

  it(
    "types @solana/kit's key pairs with Node's Web Crypto (src/server/web-crypto-globals.d.ts)",
    () => {
      const errors = errorsOf(
        'server',
        file,
        [
          "import { generateKeyPair } from '@solana/kit';",
          'export const pair: CryptoKeyPair = await generateKeyPair();',
          'export const algorithm: string = pair.privateKey.algorithm.name;',
          // Not `any` (as an unknown name in a library's types would be): a key pair is no number.
          'export const wrong: number = await generateKeyPair();',
        ].join('\n'),
      );
      expect(errors).toEqual([
        expect.stringContaining("Type 'CryptoKeyPair' is not assignable to type 'number'"),
      ]);
    },
    SLOW,
  );
});

describe('the projects', () => {
  it('hold every TypeScript file of the repository, the web and the server code each in one', () => {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
      .split('\n')
      .filter(Boolean);
    const members = new Map(
      PROJECTS.map((project) => [
        project,
        new Set(parsedConfig(project).fileNames.map((name) => path.relative(ROOT, name))),
      ]),
    );
    const homeless = files.filter((file) => PROJECTS.every((project) => !members.get(project)?.has(file)));
    expect(homeless).toEqual([]);
    const web = members.get('web') ?? new Set();
    const server = members.get('server') ?? new Set();
    expect(files.filter((file) => file.startsWith('src/web/') && server.has(file))).toEqual([]);
    expect(files.filter((file) => file.startsWith('src/server/') && web.has(file))).toEqual([]);
    expect(web.has('src/web/main.tsx') && server.has('src/server/main.ts')).toBe(true);
  });
});
