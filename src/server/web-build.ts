import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** Where the built web app lives (the static-web plugin serves it). */
export const WEB_BUILD_DIR = path.join(REPO_ROOT, 'dist/web');

/** Everything the bundle is made from; src/contract is shared with the server but bundled too. */
const WEB_SOURCES = ['src/web', 'src/contract', 'index.html', 'vite.config.ts', 'public'];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** dist/web is missing or older than one of its sources. */
export function isWebBuildStale(): boolean {
  const index = path.join(WEB_BUILD_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return WEB_SOURCES.some((source) => newestMtime(path.join(REPO_ROOT, source)) > built);
}

/** `vite build` as a command line: node running vite's own script, without npx in between. */
export function viteBuildCommand(): { command: string; args: string[] } {
  const vitePackage = createRequire(import.meta.url).resolve('vite/package.json');
  return {
    command: process.execPath,
    args: [path.join(path.dirname(vitePackage), 'bin/vite.js'), 'build', '--logLevel', 'warn'],
  };
}

/**
 * Builds dist/web in a child process when it is stale, so the server's own start (database,
 * chain, demo data) runs on the other core meanwhile. Resolves with whether it built; rejects with
 * vite's output when the build fails.
 */
export function buildWebIfStale(): Promise<boolean> {
  if (!isWebBuildStale()) return Promise.resolve(false);
  const { command, args } = viteBuildCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let output = '';
    const append = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-64 * 1024);
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(true);
      else reject(new Error(`vite build failed (exit ${code}):\n${output.trim()}`));
    });
  });
}
