import { z } from 'zod';

export const CLUSTERS = ['localnet', 'devnet', 'testnet', 'mainnet-beta'] as const;
export type Cluster = (typeof CLUSTERS)[number];

/** GET /api/config: what the web app needs to know about this deployment. */
export const publicConfigSchema = z
  .object({
    cluster: z.enum(CLUSTERS),
    embeddedChain: z.boolean(),
    /** Explorer link for a transaction signature: replace `{signature}`. */
    explorerUrl: z.string(),
    /**
     * Solana Explorer's link for a signature (replace `{signature}`), or null when it cannot read
     * this chain. On the embedded chain explorerUrl is our own /tx page and this the second link,
     * through the chain's local RPC (`cluster=custom`); on a real cluster both are the same.
     */
    solanaExplorerUrl: z.string().nullable(),
    /**
     * Escrow program v1, whose vaults hold the SOL of dares created before v2 (older data folders):
     * anyone can check it on chain. null where the chain never had a v1 vault (decision 081).
     */
    escrowProgramId: z.string().nullable(),
    /** Escrow program v2, whose vaults hold every new dare's SOL (judges, guardian, payout window). */
    escrowProgramV2Id: z.string(),
    limits: z.object({
      stakeMinSol: z.string(),
      stakeMaxSol: z.string(),
      /**
       * The network fee a wallet pays for a payment now (SOL, exact): the base fee and the priority
       * fee at the cluster's current price (decision 068). The balance checks count it.
       */
      networkFeeSol: z.string(),
      poolAddMinSol: z.string(),
      maxVideoBytes: z.number().int(),
      votesPerUserPerDare: z.number().int(),
      airdropMaxSol: z.string(),
      /**
       * What entering a dare takes from the entrant's wallet (the entry's rent on this chain and
       * the network fee, exact): the rent comes back when the dare ends. Submit Video shows it.
       */
      entryCostSol: z.string(),
      /**
       * What creating a dare's vault lends from the creator's wallet besides the stake and the fee
       * (SOL, exact): the rent of the v2 vault and of the creator's receipt, returned when the dare
       * ends. The balance check before Create Dare counts it.
       */
      newVaultRentSol: z.string(),
      /**
       * What a backer's first contribution to a dare lends from its wallet besides the amount and
       * the fee (SOL, exact): its receipt's rent, returned when the dare ends (decision 058). Add to
       * Pool says it and its balance check counts it.
       */
      receiptRentSol: z.string(),
    }),
  })
  .meta({ id: 'PublicConfig' });

export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** The label the UI shows for a cluster in texts such as 'You have x SOL on {network}'. */
export function networkLabel(cluster: Cluster): string {
  return cluster === 'mainnet-beta' ? 'mainnet' : cluster;
}
