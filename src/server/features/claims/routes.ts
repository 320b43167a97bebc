import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { claimPrizeRequestSchema, claimSchema, winningSubmissionSchema } from '#contract/claims';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { ClaimsService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 503);

export const claimRoutes: FastifyPluginAsyncZod<{ claims: ClaimsService }> = async (app, { claims }) => {
  app.post(
    '/api/claims/prize',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['claims'],
        summary: "Pay the caller's prize for a winning submission (amount and wallet are the server's)",
        body: claimPrizeRequestSchema,
        response: { 200: claimSchema, ...errors },
      },
    },
    async (request) => claims.claimPrize(userOf(request), request.body.submissionId),
  );

  app.get(
    '/api/claims',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['claims'],
        summary: "The session user's prize claims",
        response: { 200: z.array(claimSchema), ...errors },
      },
    },
    async (request) => claims.listClaims(userOf(request)),
  );

  app.get(
    '/api/winning-submissions',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['claims'],
        summary: "The session user's winning submissions, one per prize",
        response: { 200: z.array(winningSubmissionSchema), ...errors },
      },
    },
    async (request) => claims.listWinningSubmissions(userOf(request)),
  );
};
