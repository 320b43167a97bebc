import type { Address, Rpc, Signature, SolanaRpcApi } from '@solana/kit';
import type { Cluster } from '#contract/config';

/** Whether the embedded chain serves its JSON-RPC to wallets, the solana CLI and explorers. */
export type ChainRpcServerStatus =
  | { serving: true; httpUrl: string; wsUrl: string }
  | { serving: false; reason: string };

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
  /**
   * Solana Explorer's link template for a signature, or null when Solana Explorer cannot read this
   * chain (the embedded chain when it does not serve its RPC). Equal to explorerUrlTemplate on a
   * real cluster.
   */
  readonly solanaExplorerUrlTemplate: string | null;
  /** The embedded chain's own RPC endpoints, when it was asked to serve them. */
  readonly rpcServer?: ChainRpcServerStatus;
  /**
   * The embedded chain's test controls, present only when it was created with them (tests, or a
   * server started with EMBEDDED_CHAIN_TEST_CONTROLS=1): never on a normal start or a cluster.
   */
  readonly testControls?: ChainTestControls;
  health(): Promise<ChainHealth>;
  /** Test SOL; only the embedded chain (and local validators) can mint it. */
  airdrop(address: Address, lamports: bigint): Promise<Signature>;
  /** Flushes state (the embedded chain writes it to the data folder) and releases resources. */
  close(): Promise<void>;
}

export interface ChainTestControls {
  /** Moves the chain's clock forward: slots, the Clock sysvar and blockhash expiry follow. */
  warp(seconds: number): Promise<{ slot: bigint; unixTimestamp: bigint }>;
}
