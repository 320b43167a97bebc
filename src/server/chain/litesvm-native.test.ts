import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EmbeddedChainUnavailableError,
  embeddedChainUnavailable,
  liteSvm,
  loadLiteSvm,
} from './litesvm-native';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-no-litesvm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A platform LiteSVM publishes no binary for, as on Windows: LiteSVM's own loader runs, looks for
 * the win32 binary package, and finds none (npm never installs another platform's binary).
 */
const NO_BINARY_HOOK = `
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'litesvm' || request === 'litesvm/dist/internal.js') {
    Object.defineProperty(process, 'platform', { value: 'win32', configurable: true });
  }
  if (/^litesvm-|litesvm\\.[\\w-]+\\.node$/.test(request)) {
    const error = new Error("Cannot find module '" + request + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return load.call(this, request, ...rest);
};
`;

describe('the embedded chain where LiteSVM has no binary', () => {
  it('says in one line that the chain is not available here and what to do instead', () => {
    const message = embeddedChainUnavailable('win32', 'x64').message;
    expect(message).toBe(
      'The embedded Solana chain is not available on this platform: LiteSVM has no native binary for win32-x64. It runs on macOS and Linux (x64 and arm64); on Windows run DarePool in WSL, or set SOLANA_RPC_URL to a real cluster (with DATABASE_URL, docs/operations.md).',
    );
    // A supported platform whose binary did not load (an install copied from elsewhere).
    expect(embeddedChainUnavailable('darwin', 'arm64').message).toContain(
      'its native binary for darwin-arm64 did not load (run npm install again)',
    );
  });

  it("turns napi's multi-line load failure into that one line", () => {
    const failing = () => {
      throw new Error('Cannot find native binding.\n  cause: Cannot find module litesvm-win32-x64-msvc');
    };
    expect(() => loadLiteSvm(failing, { platform: 'win32', arch: 'x64' })).toThrow(
      EmbeddedChainUnavailableError,
    );
    expect(() => loadLiteSvm(failing, { platform: 'win32', arch: 'x64' })).toThrow(/^[^\n]+$/);
    // Here, where the binary is installed, the real module loads.
    expect(typeof liteSvm().LiteSVM).toBe('function');
  });

  it('stops the server start with that line alone, exit code 1, before creating anything', async () => {
    const hook = path.join(dir, 'no-litesvm-binary.cjs');
    writeFileSync(hook, NO_BINARY_HOOK);
    const dataDir = path.join(dir, 'data');
    const start = pathToFileURL(path.join(ROOT, 'src/server/start.ts')).href;
    const run = promisify(execFile)(
      process.execPath,
      [
        '--require',
        hook,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { startServer, failedToStart } from '${start}'; startServer().catch(failedToStart);`,
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: '0',
          CHAIN_RPC_PORT: '0',
          SEED_DEMO_DATA: 'false',
          DATABASE_URL: '',
          SOLANA_RPC_URL: '',
          LOG_LEVEL: 'warn',
          NODE_OPTIONS: '',
        },
      },
    );
    const failure = (await run.then(
      () => null,
      (error: unknown) => error,
    )) as { code: number; stdout: string; stderr: string } | null;
    expect(failure).not.toBeNull();
    expect(failure!.code).toBe(1);
    expect(failure!.stdout).toBe('');
    expect(failure!.stderr).toBe(
      `DarePool failed to start: ${embeddedChainUnavailable('win32', 'x64').message}\n`,
    );
    expect(existsSync(dataDir)).toBe(false);
  }, 120_000);
});
