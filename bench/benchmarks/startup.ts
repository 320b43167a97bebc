import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeStartTimings, type StartTimings } from '../../src/server/start-timings';
import { npmStart, REPO_ROOT } from '../lib/npm-start';
import { machineLoad } from '../lib/report';
import type { Benchmark, MeasureResult } from '../types';

const FIRST_START_BUDGET_MS = 5000;
const RESTART_BUDGET_MS = 2000;

interface Run {
  ms: number;
  cpuMs: number | null;
  /** The server's own account of its start (its `startTimings` log line); null if it logged none. */
  timings: StartTimings | null;
}

/** The `startTimings` the server logged (JSON lines: its stdout is not a terminal). */
function startTimingsIn(logFile: string): StartTimings | null {
  if (!existsSync(logFile)) return null;
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"startTimings"')) continue;
    try {
      return (JSON.parse(line) as { startTimings: StartTimings }).startTimings;
    } catch {}
  }
  return null;
}

/**
 * Milliseconds from `npm start` until Home (its page and the dare list it shows, demo data in
 * it) answers 200.
 */
async function timeToFirstPage(cwd: string, dataDir: string, logFile: string): Promise<Run> {
  const server = await npmStart(
    { cwd, dataDir, logFile, env: { SEED_DEMO_DATA: 'true', LOG_LEVEL: 'info' } },
    async (baseUrl) => {
      const home = await fetch(`${baseUrl}/`).catch(() => null);
      const dares = home?.ok ? await fetch(`${baseUrl}/api/dares?filter=all`).catch(() => null) : null;
      if (!dares?.ok) return false;
      if (((await dares.json()) as unknown[]).length === 0)
        throw new Error('Home answered with no demo dares');
      return true;
    },
  );
  await server.stop();
  return { ms: server.startedInMs, cpuMs: server.cpuMs, timings: startTimingsIn(logFile) };
}

/**
 * What the run's numbers depend on besides the code: where the time went (the server's own
 * account, and the rest: npm and node starting, the first page's requests), the CPU work, the load.
 */
function detail(run: Run): string {
  const cpu = run.cpuMs === null ? '' : `${(run.cpuMs / 1000).toFixed(1)} s CPU; `;
  const where = run.timings
    ? `server ${describeStartTimings(run.timings)}; npm, node's start and the first page ${((run.ms - run.timings.totalMs) / 1000).toFixed(2)} s`
    : 'no startTimings in the server log';
  return `${cpu}${where}`;
}

/**
 * `npm start` on a fresh clone of the committed tree after `npm install` (its postinstall compiled
 * the server and built the web app; no data: the demo data is created), then a restart of that
 * clone on the data it made.
 * BENCH_STARTUP_COMMIT=<commit> measures that commit instead, for a before/after on one machine.
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
      // BENCH_STARTUP_COMMIT: the same measure of an older commit, on this machine as it is now.
      const commit = process.env.BENCH_STARTUP_COMMIT;
      if (commit) execFileSync('git', ['-C', clone, 'checkout', '--quiet', commit]);
      // Installing packages is `npm install`'s time, not the start's; so is its last step
      // (postinstall: the server compiled, the web app built), run here as `npm install` runs it.
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
      const installStarted = performance.now();
      execFileSync('npm', ['run', '--silent', 'postinstall'], { cwd: clone, stdio: 'ignore' });
      const postinstallMs = performance.now() - installStarted;
      const dataDir = path.join(work, 'data');
      const first = await timeToFirstPage(clone, dataDir, path.join(work, 'first.log'));
      const firstLoad = machineLoad();
      const restart = await timeToFirstPage(clone, dataDir, path.join(work, 'restart.log'));
      const restartLoad = machineLoad();
      const results: MeasureResult[] = [
        {
          kind: 'measure',
          name: 'first start on a fresh clone after npm install (demo data)',
          value: Math.round(first.ms),
          unit: 'ms',
          budget: FIRST_START_BUDGET_MS,
          load: firstLoad,
          detail: `${detail(first)}; before it, npm install's postinstall (not timed here) ${(postinstallMs / 1000).toFixed(1)} s`,
        },
        {
          kind: 'measure',
          name: 'restart',
          value: Math.round(restart.ms),
          unit: 'ms',
          budget: RESTART_BUDGET_MS,
          load: restartLoad,
          detail: detail(restart),
        },
      ];
      return results;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
