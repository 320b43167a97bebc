import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addPoolRequestSchema,
  createDareRequestSchema,
  dareBackerSchema,
  dareIdParamsSchema,
  dareListQuerySchema,
  dareSchema,
} from '#contract/dares';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { DaresService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 429, 503);

export const dareRoutes: FastifyPluginAsyncZod<{ dares: DaresService }> = async (app, { dares }) => {
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
        const page = await dares.listDares(request.query);
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

  app.get(
    '/api/dares/:id/backers',
    {
      schema: {
        tags: ['dares'],
        summary: "Who backed the dare's pool, largest first (a wallet with no account by its address)",
        params: dareIdParamsSchema,
        response: { 200: z.array(dareBackerSchema), ...errors },
      },
    },
    async (request) => dares.listBackers(request.params.id),
  );

  app.post(
    '/api/dares',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dares'],
        summary: 'Create a dare from a stake verified on chain (a repeated signature answers the same dare)',
        body: createDareRequestSchema,
        response: { 200: dareSchema, 201: dareSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { dare, created } = await dares.createDare(userOf(request), request.body);
      return reply.status(created ? 201 : 200).send(dare);
    },
  );

  app.post(
    '/api/dares/:id/add-pool',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dares'],
        summary: "Credit a contribution verified on chain to a dare's pool",
        params: dareIdParamsSchema,
        body: addPoolRequestSchema,
        response: { 200: dareSchema, ...errors },
      },
    },
    async (request) => dares.addToPool(userOf(request), request.params.id, request.body),
  );
};
