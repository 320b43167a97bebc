import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { healthSchema } from '#contract/health';
import { createFeePayerFunds } from '#server/chain/fee-payer-funds';
import { GUARDIAN_MIN_LAMPORTS, guardianBalance } from '#server/chain/guardian-funds';
import type { AppDeps } from '#server/deps';
import type { RateLimiter } from '#server/rate-limit/port';

/**
 * The rate-limit store, the fee payer and the guardian's wallet are reported but do not make the answer 503: every
 * instance shares them, so taking instances out of a load balancer for them would help nobody
 * (reads keep working without them).
 */
export const healthRoutes: FastifyPluginAsyncZod<AppDeps & { limiter: RateLimiter }> = async (
  app,
  { database, chain, limiter, escrowKeys, config, judging },
) => {
  const feePayerFunds = createFeePayerFunds({ rpc: chain.rpc, escrowKeys });
  const minBalance = config.feePayerMinLamports;
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness of the database and the chain; where rate limits are counted',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const [db, chainHealth, feePayer, guardian] = await Promise.all([
        database
          .ping()
          .then(() => ({ ok: true }))
          .catch((error: Error) => ({ ok: false, error: error.message })),
        chain.health().catch((error: Error) => ({ ok: false as const, error: error.message })),
        feePayerFunds.balance().then(
          ({ lamports }) => lamports,
          () => null,
        ),
        guardianBalance(chain.rpc, judging.guardian).catch(() => null),
      ]);
      const feePayerOk = feePayer !== null && feePayer >= minBalance;
      const ok = db.ok && chainHealth.ok;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: { kind: database.kind, ...db },
        chain: {
          cluster: chain.cluster,
          embedded: chain.embedded,
          ok: chainHealth.ok,
          ...(chainHealth.ok ? { slot: chainHealth.slot.toString() } : { error: chainHealth.error }),
        },
        rateLimits: limiter.state(),
        feePayer: {
          ok: feePayerOk,
          ...(feePayer === null ? {} : { balance: feePayer.toString() }),
          minBalance: minBalance.toString(),
          ...(feePayerOk ? {} : { message: FEE_PAYER_MESSAGES.low }),
        },
        guardian: {
          ok: guardian !== null && guardian >= GUARDIAN_MIN_LAMPORTS,
          address: judging.guardian,
          ...(guardian === null ? {} : { balance: guardian.toString() }),
          minBalance: GUARDIAN_MIN_LAMPORTS.toString(),
        },
      });
    },
  );
};
