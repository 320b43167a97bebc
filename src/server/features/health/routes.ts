import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '#contract/health';
import type { AppDeps } from '../../deps';
import type { RateLimiter } from '../../rate-limit/port';

/**
 * The rate-limit store is reported but does not make the answer 503: every instance shares it, so
 * taking instances out of a load balancer for it would help nobody (reads keep working without it).
 */
export const healthRoutes: FastifyPluginAsyncZod<AppDeps & { limiter: RateLimiter }> = async (
  app,
  { database, chain, limiter },
) => {
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
      const [db, chainHealth] = await Promise.all([
        database
          .ping()
          .then(() => ({ ok: true }))
          .catch((error: Error) => ({ ok: false, error: error.message })),
        chain.health().catch((error: Error) => ({ ok: false as const, error: error.message })),
      ]);
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
      });
    },
  );
};
