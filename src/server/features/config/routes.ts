import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type PublicConfig, publicConfigSchema } from '#contract/config';
import {
  AIRDROP_MAX_SOL,
  NETWORK_FEE_SOL,
  POOL_ADD_MIN_SOL,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
  SUBMISSION_LIMITS,
} from '#contract/limits';
import type { AppDeps } from '../../deps';

export const configRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { chain, escrowProgramId }) => {
  const publicConfig: PublicConfig = {
    cluster: chain.cluster,
    embeddedChain: chain.embedded,
    explorerUrl: chain.explorerUrlTemplate,
    solanaExplorerUrl: chain.solanaExplorerUrlTemplate,
    escrowProgramId,
    limits: {
      stakeMinSol: STAKE_MIN_SOL,
      stakeMaxSol: STAKE_MAX_SOL,
      networkFeeSol: NETWORK_FEE_SOL,
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
    async () => publicConfig,
  );
};
