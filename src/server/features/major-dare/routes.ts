import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dareIdParamsSchema } from '../../../contract/admin';
import { claimSchema } from '../../../contract/claims';
import { dareSchema } from '../../../contract/dares';
import { errorBodySchema } from '../../../contract/errors';
import {
  createMajorDareRequestSchema,
  majorDareSchema,
  selectMajorWinnerRequestSchema,
} from '../../../contract/major-dare';
import type { Db } from '../../db/client';
import { requireAdmin } from '../../plugins/authenticate';
import { currentMajorDare } from './repo';
import type { MajorDareService } from './service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  503: errorBodySchema,
};
const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };

export const majorDareRoutes: FastifyPluginAsyncZod<{ db: Db; majorDare: MajorDareService }> = async (
  app,
  { db, majorDare },
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
      app.readCache.serve(request, reply, async () => ({ body: await currentMajorDare(db) })),
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
