/**
 * Solana clusters and their UI labels, free of zod so the web's first load can import them
 * (`config.ts` builds its schema on top of these).
 */
export const CLUSTERS = ['localnet', 'devnet', 'testnet', 'mainnet-beta'] as const;
export type Cluster = (typeof CLUSTERS)[number];

/** The label the UI shows for a cluster in texts such as 'You have x SOL on {network}'. */
export function networkLabel(cluster: Cluster): string {
  return cluster === 'mainnet-beta' ? 'mainnet' : cluster;
}
