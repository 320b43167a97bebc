import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { npmStart, REPO_ROOT } from '../lib/npm-start';
import type { Benchmark, MeasureResult } from '../types';

const FIRST_START_BUDGET_MS = 8000;
const RESTART_BUDGET_MS = 3000;

/** Milliseconds from `npm start` until Home and the dare list it shows both answer 200. */
async function timeToFirstPage(cwd: string, dataDir: string): Promise<{ ms: number; cpuMs: number | null }> {
  const server = await npmStart({ cwd, dataDir, env: { SEED_DEMO_DATA: 'true' } }, async (baseUrl) => {
    const home = await fetch(`${baseUrl}/`).catch(() => null);
    const dares = home?.ok ? await fetch(`${baseUrl}/api/dares?filter=all`).catch(() => null) : null;
    return dares?.ok === true;
  });
  await server.stop();
  return { ms: server.startedInMs, cpuMs: server.cpuMs };
}

/** What the run's numbers depend on besides the code: the work done, and the machine's load. */
function detail(run: { cpuMs: number | null }, load: number): string {
  const cpu = run.cpuMs === null ? '' : `${(run.cpuMs / 1000).toFixed(1)} s CPU, `;
  return `${cpu}load average ${load.toFixed(2)} on ${os.cpus().length} CPUs`;
}

/**
 * `npm start` on a fresh clone of the committed tree (no web build, no data: the web app is built
 * and the demo data created), then a restart of that clone on the data it made.
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
      // Installing packages is `npm install`'s time, not the start's.
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(clone, 'node_modules'));
      const dataDir = path.join(work, 'data');
      const firstLoad = os.loadavg()[0]!;
      const first = await timeToFirstPage(clone, dataDir);
      const restartLoad = os.loadavg()[0]!;
      const restart = await timeToFirstPage(clone, dataDir);
      const results: MeasureResult[] = [
        {
          kind: 'measure',
          name: 'first start on a fresh clone (web build + demo data)',
          value: Math.round(first.ms),
          unit: 'ms',
          budget: FIRST_START_BUDGET_MS,
          detail: detail(first, firstLoad),
        },
        {
          kind: 'measure',
          name: 'restart',
          value: Math.round(restart.ms),
          unit: 'ms',
          budget: RESTART_BUDGET_MS,
          detail: detail(restart, restartLoad),
        },
      ];
      return results;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
