import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dareIdParamsSchema } from '#contract/dares';
import {
  refundRequestSchema,
  refundResponseSchema,
  refundStatusSchema,
  refundTransactionResponseSchema,
} from '#contract/refund-me';
import { errorResponses } from '../../errors';
import { requireUser } from '../../plugins/authenticate';
import type { RefundMeService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 429, 503);

/** 'Refund me' on a dare's page: docs/product.md#dare-details, decision 025. */
export const refundMeRoutes: FastifyPluginAsyncZod<{ refundMe: RefundMeService }> = async (
  app,
  { refundMe },
) => {
  app.get(
    '/api/dares/:id/refund-status',
    {
      schema: {
        tags: ['refunds'],
        summary: "Whether the caller's wallet can take its SOL back from the dare's vault now, and how much",
        security: [{ bearerAuth: [] }],
        params: dareIdParamsSchema,
        response: { 200: refundStatusSchema, ...errors },
      },
    },
    async (request) => refundMe.status(requireUser(request), request.params.id),
  );

  app.post(
    '/api/dares/:id/refund-transaction',
    {
      schema: {
        tags: ['refunds'],
        summary:
          "'Refund me': the `refund` of the caller's receipt in the dare's vault; their wallet is the fee payer and the only signer",
        security: [{ bearerAuth: [] }],
        params: dareIdParamsSchema,
        response: { 200: refundTransactionResponseSchema, ...errors },
      },
    },
    async (request) => refundMe.transaction(requireUser(request), request.params.id),
  );

  app.post(
    '/api/dares/:id/refund',
    {
      schema: {
        tags: ['refunds'],
        summary:
          "Relays the caller's signed refund (the one prepared for them, unchanged; the server signs nothing), waits for it and books it",
        security: [{ bearerAuth: [] }],
        params: dareIdParamsSchema,
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) =>
      refundMe.refund(requireUser(request), request.params.id, request.body.signedTransaction),
  );
};
