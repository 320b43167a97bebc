/**
 * One of the repository's scripts run in its own process, as `npm run` runs it: node with tsx,
 * from the repository's root. Resolves with its output; rejects with its exit code and output.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export function runScript(script: string, args: string[], env?: NodeJS.ProcessEnv) {
  return run(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, ...(env ? { env } : {}) });
}
