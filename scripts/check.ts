/**
 * `npm run check`: the typecheck, Biome (lint, format, import order), the import boundaries
 * (scripts/check-boundaries.ts) and the paths the docs name (scripts/check-doc-paths.ts). Every step runs and prints all it finds, whatever an earlier
 * step found, so one run shows everything to fix; it exits 1 if any step failed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

const steps = [
  { name: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', '.'] },
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

const results = steps.map((step) => {
  console.log(`--- ${step.name}`);
  const started = performance.now();
  const run = spawnSync(step.command, step.args, { cwd: ROOT, stdio: 'inherit' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (run.error) console.error(`${step.name}: ${run.error.message}`);
  return { name: step.name, ok: run.status === 0, seconds };
});

console.log(
  `--- check: ${results.map((result) => `${result.name} ${result.ok ? 'ok' : 'FAILED'} (${result.seconds} s)`).join(', ')}`,
);
if (results.some((result) => !result.ok)) process.exit(1);
