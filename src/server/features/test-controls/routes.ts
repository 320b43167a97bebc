import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { warpRequestSchema, warpResponseSchema } from '#contract/test-controls';
import type { ChainTestControls } from '#server/chain/port';
import { errorResponses } from '#server/errors';

/**
 * Test-only controls of the embedded chain. Registered only when the chain has them, which needs
 * EMBEDDED_CHAIN_TEST_CONTROLS=1 (refused with SOLANA_RPC_URL): on a normal start the route does
 * not exist at all, so nobody can move the chain's clock past a deadline or a payout window.
 */
export const testControlRoutes: FastifyPluginAsyncZod<{ controls: ChainTestControls }> = async (
  app,
  { controls },
) => {
  app.post(
    '/api/dev/warp',
    {
      schema: {
        tags: ['test-controls'],
        summary: "Move the embedded chain's clock forward (EMBEDDED_CHAIN_TEST_CONTROLS=1 only)",
        body: warpRequestSchema,
        response: { 200: warpResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { slot, unixTimestamp } = await controls.warp(request.body.seconds);
      return { slot: slot.toString(), unixTimestamp: unixTimestamp.toString() };
    },
  );
};
