import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getFreePort } from '../../e2e/fixtures/server';
import { processGroupCpuMs } from './proc-cpu';

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
  /** CPU ms the `npm start` process tree has used so far (null where /proc cannot tell). */
  usedCpuMs(): number | null;
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
      ESCROW_PROGRAM_V2_ID: '',
      JUDGE_WALLETS: '',
      GUARDIAN_WALLET: '',
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
  const group = child.pid!;
  const cpuMs = processGroupCpuMs(group);
  return {
    baseUrl,
    port,
    startedInMs,
    cpuMs,
    usedCpuMs: () => processGroupCpuMs(group),
    logLines: () => (options.logFile ? countLines(options.logFile) : 0),
    stop,
  };
}

function countLines(file: string): number {
  const text = readFileSync(file);
  let lines = 0;
  for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines++;
  return lines;
}
