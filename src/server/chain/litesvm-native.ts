/**
 * The one place that loads LiteSVM's code. LiteSVM is a native module with a binary per platform
 * (an optional dependency npm installs only where it fits), so loading it fails on any other
 * platform. Everything else imports LiteSVM's types only and reaches its classes through here, so
 * that failure happens when the embedded chain is opened, not when the server's modules load: the
 * server then stops with one line that says what to do, and an app on a real cluster
 * (SOLANA_RPC_URL) never loads LiteSVM at all.
 */
import { createRequire } from 'node:module';

export type LiteSvmModule = typeof import('litesvm');
/** The native classes index.js does not re-export (transaction and instruction errors). */
export type LiteSvmInternals = typeof import('litesvm/dist/internal.js');

/** Where `npm install` brings a LiteSVM binary (litesvm's optionalDependencies; glibc or musl on Linux). */
export const EMBEDDED_CHAIN_PLATFORMS = ['darwin-arm64', 'darwin-x64', 'linux-x64', 'linux-arm64'] as const;

export class EmbeddedChainUnavailableError extends Error {
  override name = 'EmbeddedChainUnavailableError';
}

export function embeddedChainUnavailable(platform: string, arch: string): EmbeddedChainUnavailableError {
  const where = `${platform}-${arch}`;
  const why = (EMBEDDED_CHAIN_PLATFORMS as readonly string[]).includes(where)
    ? `its native binary for ${where} did not load (run npm install again)`
    : `LiteSVM has no native binary for ${where}`;
  return new EmbeddedChainUnavailableError(
    `The embedded Solana chain is not available on this platform: ${why}. It runs on macOS and Linux (x64 and arm64); on Windows run DarePool in WSL, or set SOLANA_RPC_URL to a real cluster (with DATABASE_URL, docs/operations.md).`,
  );
}

const requireFromHere = createRequire(import.meta.url);
let loaded: LiteSvmModule | null = null;
let internals: LiteSvmInternals | null = null;

/** LiteSVM's module, loaded on first use; throws EmbeddedChainUnavailableError (one line). */
export function liteSvm(): LiteSvmModule {
  loaded ??= loadLiteSvm(() => requireFromHere('litesvm') as LiteSvmModule, process);
  return loaded;
}

/** LiteSVM's native classes module, loaded on first use, failing as liteSvm() does. */
export function liteSvmInternals(): LiteSvmInternals {
  internals ??= loadLiteSvm(() => requireFromHere('litesvm/dist/internal.js') as LiteSvmInternals, process);
  return internals;
}

/** `load`, with its failure told in one line; tests pass a `load` that fails as on such a platform. */
export function loadLiteSvm<Module>(load: () => Module, where: { platform: string; arch: string }): Module {
  try {
    return load();
  } catch {
    // napi's own error is a multi-line list of every path it tried; the platform says it all.
    throw embeddedChainUnavailable(where.platform, where.arch);
  }
}
