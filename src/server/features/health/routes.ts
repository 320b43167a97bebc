import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '../../../contract/health';
import type { AppDeps } from '../../app';

export const healthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { database, chain }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness of the database and the chain',
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
      });
    },
  );
};
