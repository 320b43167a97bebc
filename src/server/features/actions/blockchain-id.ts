import type { ChainPort } from '#server/chain/port';

/**
 * The cluster, as CAIP-2 names it (`solana:` and the genesis hash's first 32 characters, as the
 * SDK's BLOCKCHAIN_IDS): asked of the chain once (again after a failure).
 */
export function createBlockchainId({ rpc }: ChainPort): () => Promise<string> {
  let blockchainId: Promise<string> | null = null;
  return () => {
    blockchainId ??= rpc
      .getGenesisHash()
      .send()
      .then((hash) => `solana:${hash.slice(0, 32)}`)
      .catch((error: unknown) => {
        blockchainId = null;
        throw error;
      });
    return blockchainId;
  };
}
