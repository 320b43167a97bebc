import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dareIdParamsSchema } from '#contract/admin';
import { claimSchema } from '#contract/claims';
import { dareSchema } from '#contract/dares';
import {
  createMajorDareRequestSchema,
  majorDareSchema,
  selectMajorWinnerRequestSchema,
} from '#contract/major-dare';
import { errorResponses } from '../../errors';
import { requireAdmin } from '../../plugins/authenticate';
import type { MajorDareService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 503);
const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };

export const majorDareRoutes: FastifyPluginAsyncZod<{ majorDare: MajorDareService }> = async (
  app,
  { majorDare },
) => {
  app.get(
    '/api/major-dare',
    {
      schema: {
        tags: ['major-dare'],
        summary: 'The current major dare, or {isActive:false}',
        response: { 200: majorDareSchema },
      },
    },
    async (request, reply) =>
      app.readCache.serve(request, reply, async () => ({ body: await majorDare.current() })),
  );

  // Admin-only: checked before the body is read, so a normal user gets 403 whatever they send.
  const adminOnly = async (request: Parameters<typeof requireAdmin>[0]) => {
    requireAdmin(request);
  };

  app.post(
    '/api/admin/major-dare',
    {
      onRequest: adminOnly,
      schema: {
        ...secured,
        summary: "Create a major dare from the admin's prize payment verified on chain",
        body: createMajorDareRequestSchema,
        response: { 200: dareSchema, 201: dareSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { dare, created } = await majorDare.create(requireAdmin(request), request.body);
      return reply.status(created ? 201 : 200).send(dare);
    },
  );

  app.post(
    '/api/admin/major-dare/:dareId/winner',
    {
      onRequest: adminOnly,
      schema: {
        ...secured,
        summary: 'Select the admin (70%) or community (30%) winner of a major dare',
        params: dareIdParamsSchema,
        body: selectMajorWinnerRequestSchema,
        response: { 201: claimSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await majorDare.selectWinner(
            request.params.dareId,
            request.body.submissionId,
            request.body.winnerType,
          ),
        ),
  );
};
