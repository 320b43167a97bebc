import type { Cluster } from '../../contract/config';
import { createEmbeddedChain } from './embedded';
import type { ChainPort } from './port';
import { createRpcChain } from './rpc-chain';

export type { ChainPort } from './port';

/** A real cluster when an RPC URL is given, else the embedded chain (in memory when stateDir is null). */
export async function createChain(options: {
  rpcUrl?: string;
  cluster?: Cluster;
  stateDir: string | null;
  clock?: () => Date;
}): Promise<ChainPort> {
  if (options.rpcUrl) return createRpcChain({ rpcUrl: options.rpcUrl, cluster: options.cluster ?? 'devnet' });
  return createEmbeddedChain({ stateDir: options.stateDir, clock: options.clock });
}
