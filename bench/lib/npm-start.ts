import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getFreePort } from '../../e2e/fixtures/server';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface NpmStartOptions {
  /** The checkout to start (default this one). */
  cwd?: string;
  dataDir: string;
  /**
   * Only what a benchmark must set (its database, no demo data, ...). NODE_ENV and LOG_LEVEL are
   * left as the caller's environment has them, as `npm start` in that shell would.
   */
  env?: Record<string, string>;
  /** Where the server's stdout and stderr go (a log file, as under a process manager); unset: nowhere. */
  logFile?: string;
}

export interface NpmStarted {
  baseUrl: string;
  port: number;
  /** Milliseconds from the spawn of `npm start` until `ready` said yes. */
  startedInMs: number;
  /**
   * CPU milliseconds (user + system) the whole `npm start` process tree had used by then, its
   * finished children (the web build) included; null where /proc cannot tell. On a shared machine
   * it shows the work apart from the wait for a core.
   */
  cpuMs: number | null;
  /** Lines the server has written to `logFile` so far. */
  logLines(): number;
  stop(): Promise<void>;
}

/**
 * `npm start --silent` exactly as a user types it, in its own process group, on a free port and
 * `dataDir`, with the embedded chain's RPC port off (other servers share the machine). Resolves
 * once `ready(baseUrl)` answers true; by default once GET /api/health answers 200.
 */
export async function npmStart(
  options: NpmStartOptions,
  ready: (baseUrl: string) => Promise<boolean> = async (baseUrl) =>
    (await fetch(`${baseUrl}/api/health`).catch(() => null))?.status === 200,
  timeoutMs = 120_000,
): Promise<NpmStarted> {
  const cwd = options.cwd ?? REPO_ROOT;
  const port = await getFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const started = performance.now();
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd,
    stdio: ['ignore', log, log],
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      // Empty values beat a developer's .env: the embedded database and chain unless told otherwise.
      DATABASE_URL: '',
      SOLANA_RPC_URL: '',
      SOLANA_CLUSTER: '',
      ESCROW_MASTER_SEED: '',
      CHAIN_RPC_PORT: '0',
      ...options.env,
    },
  });
  if (typeof log === 'number') closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    // npm runs the server in a child of its own: stop the whole group, and wait, since the data
    // folder keeps one writer.
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
  };

  try {
    const deadline = started + timeoutMs;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} in ${cwd}`);
      if (performance.now() > deadline)
        throw new Error(`npm start in ${cwd} was not ready within ${timeoutMs} ms`);
      if (await ready(baseUrl)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const startedInMs = performance.now() - started;
  const cpuMs = processGroupCpuMs(child.pid!);
  return {
    baseUrl,
    port,
    startedInMs,
    cpuMs,
    logLines: () => (options.logFile ? countLines(options.logFile) : 0),
    stop,
  };
}

/** utime + stime of every live process of the group, with what their reaped children used. */
function processGroupCpuMs(group: number): number | null {
  try {
    const ticksPerSecond = 100;
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // Fields after the command name (which may hold spaces): state is field 3.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
    return Math.round((ticks / ticksPerSecond) * 1000);
  } catch {
    return null;
  }
}

function countLines(file: string): number {
  const text = readFileSync(file);
  let lines = 0;
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines++;
  return lines;
}
