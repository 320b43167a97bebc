import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addPoolRequestSchema,
  createDareRequestSchema,
  dareIdParamsSchema,
  dareListQuerySchema,
  dareSchema,
} from '../../../contract/dares';
import { errorBodySchema } from '../../../contract/errors';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
import { requireUser } from '../../plugins/authenticate';
import { listDares } from './repo';
import type { DaresService } from './service';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

export const dareRoutes: FastifyPluginAsyncZod<{ dares: DaresService; db: Db; clock: Clock }> = async (
  app,
  { dares, db, clock },
) => {
  app.get(
    '/api/dares',
    {
      schema: {
        tags: ['dares'],
        summary: "Community dares, newest first; the next page's cursor is in the x-next-cursor header",
        querystring: dareListQuerySchema,
        response: { 200: z.array(dareSchema), ...errors },
      },
    },
    async (request, reply) =>
      app.readCache.serve(request, reply, async () => {
        const page = await listDares(db, request.query, clock());
        // The cursor header belongs to the cached answer: stored with the page, sent with it.
        const headers: Record<string, string> = page.nextCursor ? { 'x-next-cursor': page.nextCursor } : {};
        return { body: page.dares, headers };
      }),
  );

  app.get(
    '/api/dares/:id',
    {
      schema: {
        tags: ['dares'],
        summary: 'One dare',
        params: dareIdParamsSchema,
        response: { 200: dareSchema, ...errors },
      },
    },
    async (request) => dares.getDare(request.params.id),
  );

  app.post(
    '/api/dares',
    {
      schema: {
        tags: ['dares'],
        summary: 'Create a dare from a stake verified on chain (a repeated signature answers the same dare)',
        body: createDareRequestSchema,
        response: { 200: dareSchema, 201: dareSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { dare, created } = await dares.createDare(requireUser(request), request.body);
      return reply.status(created ? 201 : 200).send(dare);
    },
  );

  app.post(
    '/api/dares/:id/add-pool',
    {
      schema: {
        tags: ['dares'],
        summary: "Credit a contribution verified on chain to a dare's pool",
        params: dareIdParamsSchema,
        body: addPoolRequestSchema,
        response: { 200: dareSchema, ...errors },
      },
    },
    async (request) => dares.addToPool(requireUser(request), request.params.id, request.body),
  );
};
