import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type PublicConfig, publicConfigSchema } from '#contract/config';
import {
  AIRDROP_MAX_SOL,
  POOL_ADD_MIN_SOL,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
  SUBMISSION_LIMITS,
} from '#contract/limits';
import { lamportsToSol } from '#contract/money';
import { walletTransactionFee } from '#server/chain/compute-budget';
import { createEntryCost } from '#server/chain/escrow-program/entry-cost';
import { INSTRUCTION } from '#server/chain/escrow-program/instructions';
import { RECEIPT_SIZE } from '#server/chain/escrow-program/layout';
import { ENTRY_V2_SIZE, VAULT_V2_SIZE } from '#server/chain/escrow-program/v2/layout';
import type { AppDeps } from '#server/deps';

export const configRoutes: FastifyPluginAsyncZod<AppDeps> = async (
  app,
  { chain, escrowProgramId, escrowProgramV2Id },
) => {
  // What entering a new dare costs: every new vault is program v2's, whose entry holds the proof's hash.
  const entryCost = createEntryCost(chain.rpc, ENTRY_V2_SIZE);
  // A new v2 vault's creator lends the vault's and its own receipt's rent (decision 036); a
  // backer's first contribution its receipt's (decision 058).
  let vaultRent: Promise<{ newVault: bigint; receipt: bigint }> | undefined;
  const rents = () => {
    vaultRent ??= Promise.all(
      [VAULT_V2_SIZE, RECEIPT_SIZE].map((size) =>
        chain.rpc.getMinimumBalanceForRentExemption(BigInt(size)).send(),
      ),
    ).then(([vault, receipt]) => ({ newVault: vault! + receipt!, receipt: receipt! }));
    // A failed read is not kept: the next request asks again.
    vaultRent.catch(() => {
      vaultRent = undefined;
    });
    return vaultRent;
  };
  const publicConfig: Omit<PublicConfig, 'limits'> & {
    limits: Omit<
      PublicConfig['limits'],
      'networkFeeSol' | 'entryCostSol' | 'newVaultRentSol' | 'receiptRentSol'
    >;
  } = {
    cluster: chain.cluster,
    embeddedChain: chain.embedded,
    explorerUrl: chain.explorerUrlTemplate,
    solanaExplorerUrl: chain.solanaExplorerUrlTemplate,
    escrowProgramId,
    escrowProgramV2Id,
    limits: {
      stakeMinSol: STAKE_MIN_SOL,
      stakeMaxSol: STAKE_MAX_SOL,
      poolAddMinSol: POOL_ADD_MIN_SOL,
      maxVideoBytes: SUBMISSION_LIMITS.videoMaxBytes,
      votesPerUserPerDare: SUBMISSION_LIMITS.votesPerDare,
      airdropMaxSol: AIRDROP_MAX_SOL,
    },
  };
  app.get(
    '/api/config',
    {
      schema: {
        tags: ['config'],
        summary: 'Public configuration for the web app',
        response: { 200: publicConfigSchema },
      },
    },
    // The entry's rent is the chain's: read at the first request (a chain that does not answer
    // then fails this one request, not the start), then kept.
    async (): Promise<PublicConfig> => ({
      ...publicConfig,
      limits: {
        ...publicConfig.limits,
        // The fee of the largest transaction a wallet signs (create_vault), priority fee included.
        networkFeeSol: lamportsToSol(await walletTransactionFee(chain.rpc, INSTRUCTION.createVault)),
        entryCostSol: lamportsToSol((await entryCost()).total),
        newVaultRentSol: lamportsToSol((await rents()).newVault),
        receiptRentSol: lamportsToSol((await rents()).receipt),
      },
    }),
  );
};
