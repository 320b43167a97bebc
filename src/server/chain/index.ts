import type { Cluster } from '#contract/config';
import { createEmbeddedChain } from './embedded';
import type { ChainPort } from './port';
import { createRpcChain } from './rpc-chain';

export { ConfirmationError, type ConfirmationFailure, waitForConfirmation } from './confirmation';
export { ChainStateError, createEmbeddedChain } from './embedded';
export type { ChainHealth, ChainPort, ChainRpcServerStatus, ChainTestControls } from './port';
export { createRpcChain, explorerUrlTemplate } from './rpc-chain';

/**
 * The chain the app runs on: a real cluster when `rpcUrl` is given, else the embedded LiteSVM
 * chain (localnet), kept in `stateDir` or, when that is null, only in memory.
 */
export async function createChain(options: {
  rpcUrl?: string;
  cluster?: Cluster;
  stateDir: string | null;
  clock?: () => Date;
  /** Embedded chain only: serve its JSON-RPC and PubSub to wallets and tools. */
  rpcServer?: { host: string; port: number } | null;
  /** Embedded chain only: moving its clock (tests, EMBEDDED_CHAIN_TEST_CONTROLS=1). */
  testControls?: boolean;
  /** A real cluster only: SOLANA_WS_URL (null: beside rpcUrl). */
  wsUrl?: string | null;
  /** A real cluster only: SOLANA_RPC_MAX_RPS. */
  maxRequestsPerSecond?: number;
}): Promise<ChainPort> {
  if (options.rpcUrl) {
    // The URL may carry an API key, so it stays out of the message.
    if (!options.cluster) throw new Error('createChain: a cluster is required with rpcUrl');
    return createRpcChain({
      url: options.rpcUrl,
      cluster: options.cluster,
      maxRequestsPerSecond: options.maxRequestsPerSecond,
      wsUrl: options.wsUrl ?? null,
    });
  }
  if (options.cluster && options.cluster !== 'localnet') {
    throw new Error(`The embedded chain is localnet; ${options.cluster} needs an RPC URL`);
  }
  return createEmbeddedChain({
    stateDir: options.stateDir,
    clock: options.clock,
    rpcServer: options.rpcServer,
    testControls: options.testControls,
  });
}
