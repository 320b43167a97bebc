/**
 * `npm run check`: the typecheck, Biome (lint, format, import order), the import boundaries
 * (scripts/check-boundaries.ts) and the paths the docs name (scripts/check-doc-paths.ts). Every step runs and prints all it finds, whatever another step
 * found, so one run shows everything to fix; it exits 1 if any step failed.
 *
 * The typecheck is three TypeScript projects, each with the globals of the place its code runs
 * (docs/decisions/079-tsconfig-split-and-node-support.md): tsconfig.web.json (the browser: DOM, no
 * Node), tsconfig.server.json (Node, no DOM) and tsconfig.web-tests.json (web unit tests and e2e:
 * both). The steps run at once, each printing its output when it ends. Each project keeps what it
 * found per file in node_modules' cache folder, so a second run checks only what changed since.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

const TS_PROJECTS = ['web', 'server', 'web-tests'] as const;

const typecheck = (project: (typeof TS_PROJECTS)[number]) => ({
  name: `typecheck ${project}`,
  command: bin('tsc'),
  args: [
    '--noEmit',
    '-p',
    `tsconfig.${project}.json`,
    '--incremental',
    '--tsBuildInfoFile',
    path.join(ROOT, 'node_modules', '.cache', 'tsc', `${project}.tsbuildinfo`),
  ],
});

const steps = [
  ...TS_PROJECTS.map(typecheck),
  { name: 'biome', command: bin('biome'), args: ['check', '.'] },
  {
    name: 'boundaries',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'scripts', 'check-boundaries.ts')],
  },
  {
    name: 'doc-paths',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'scripts', 'check-doc-paths.ts')],
  },
];

interface Result {
  name: string;
  ok: boolean;
  seconds: string;
  output: string;
}

function run(step: (typeof steps)[number]): Promise<Result> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(step.command, step.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const finish = (ok: boolean, extra = '') => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      resolve({ name: step.name, ok, seconds, output: Buffer.concat(chunks).toString('utf8') + extra });
    };
    child.on('error', (error) => finish(false, `${step.name}: ${error.message}\n`));
    child.on('close', (code) => finish(code === 0));
  });
}

// Each step's output is printed whole, in the order of `steps`, so no two steps' lines interleave.
const pending = steps.map(run);
const results: Result[] = [];
for (const result of pending) {
  const { name, output } = await result;
  console.log(`--- ${name}`);
  if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  results.push(await result);
}

console.log(
  `--- check: ${results.map((result) => `${result.name} ${result.ok ? 'ok' : 'FAILED'} (${result.seconds} s)`).join(', ')}`,
);
if (results.some((result) => !result.ok)) process.exit(1);
