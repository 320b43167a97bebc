import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getFreePort } from '../../e2e/fixtures/server';
import type { Benchmark, MeasureResult } from '../types';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const FIRST_START_BUDGET_MS = 8000;
const RESTART_BUDGET_MS = 3000;

/** `npm start` exactly as a newcomer types it, in `cwd`, on the embedded defaults. */
function npmStart(cwd: string, dataDir: string, port: number): ChildProcess {
  return spawn('npm', ['start', '--silent'], {
    cwd,
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SOLANA_RPC_URL: '',
      SEED_DEMO_DATA: 'true',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
  });
}

/** Milliseconds from `npm start` until Home and the dare list it shows both answer 200. */
async function timeToFirstPage(cwd: string, dataDir: string): Promise<number> {
  const port = await getFreePort();
  const started = performance.now();
  const child = npmStart(cwd, dataDir, port);
  try {
    const deadline = started + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} in ${cwd}`);
      if (performance.now() > deadline) throw new Error(`npm start in ${cwd} served no page within 120 s`);
      const home = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
      const dares = home?.ok ? await fetch(`http://127.0.0.1:${port}/api/dares?filter=all`) : null;
      if (dares?.ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    // npm runs the server in a child of its own: stop the whole group, and wait, since the data
    // folder keeps one writer.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * `npm start` on a fresh clone of the committed tree (no web build, no data: the web app is built
 * and the demo data created), then a restart of that clone on the data it made.
 */
export const startup: Benchmark = {
  name: 'startup',
  description: 'npm start until Home and GET /api/dares answer: a fresh clone, then a restart',
  // It starts its own servers, the way a newcomer does.
  inProcess: true,
  run: async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'darepool-startup-'));
    try {
      const clone = path.join(work, 'clone');
      execFileSync('git', ['clone', '--quiet', '--local', REPO_ROOT, clone]);
      // Installing packages is `npm install`'s time, not the start's.
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
      const dataDir = path.join(work, 'data');
      const first = await timeToFirstPage(clone, dataDir);
      const restart = await timeToFirstPage(clone, dataDir);
      const results: MeasureResult[] = [
        {
          kind: 'measure',
          name: 'first start on a fresh clone (web build + demo data)',
          value: Math.round(first),
          unit: 'ms',
          budget: FIRST_START_BUDGET_MS,
        },
        {
          kind: 'measure',
          name: 'restart',
          value: Math.round(restart),
          unit: 'ms',
          budget: RESTART_BUDGET_MS,
        },
      ];
      return results;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
