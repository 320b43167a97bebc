import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import type { Cluster } from '../../contract/config';

export type ChainHealth = { ok: true; slot: bigint } | { ok: false; error: string };

/**
 * The chain as the application sees it. All reads and writes go through `rpc`, the same
 * @solana/kit JSON-RPC client whether the chain is the embedded LiteSVM or a real cluster.
 */
export interface ChainPort {
  readonly cluster: Cluster;
  readonly embedded: boolean;
  readonly rpc: Rpc<SolanaRpcApi>;
  /** Explorer link template for a signature, with `{signature}` to replace. */
  readonly explorerUrlTemplate: string;
  health(): Promise<ChainHealth>;
  /** Test SOL; only the embedded chain (and local validators) can mint it. */
  airdrop(address: Address, lamports: bigint): Promise<Signature>;
  /** Flushes state (the embedded chain writes it to the data folder) and releases resources. */
  close(): Promise<void>;
}
