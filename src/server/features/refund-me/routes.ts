import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dareIdParamsSchema } from '#contract/dares';
import {
  refundRequestSchema,
  refundResponseSchema,
  refundStatusSchema,
  refundTransactionResponseSchema,
} from '#contract/refund-me';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
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
      config: { auth: 'user' },
      schema: {
        tags: ['refunds'],
        summary: "Whether the caller's wallet can take its SOL back from the dare's vault now, and how much",
        params: dareIdParamsSchema,
        response: { 200: refundStatusSchema, ...errors },
      },
    },
    async (request) => refundMe.status(userOf(request), request.params.id),
  );

  app.post(
    '/api/dares/:id/refund-transaction',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['refunds'],
        summary:
          "'Refund me': the `refund` of the caller's receipt in the dare's vault; their wallet is the fee payer and the only signer",
        params: dareIdParamsSchema,
        response: { 200: refundTransactionResponseSchema, ...errors },
      },
    },
    async (request) => refundMe.transaction(userOf(request), request.params.id),
  );

  app.post(
    '/api/dares/:id/refund',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['refunds'],
        summary:
          "Relays the caller's signed refund (the one prepared for them, unchanged; the server signs nothing), waits for it and books it",
        params: dareIdParamsSchema,
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) => refundMe.refund(userOf(request), request.params.id, request.body.signedTransaction),
  );

  // A wallet with no account (a blink backer, decision 066) takes its own refund by address: no
  // sign-in, since only the wallet's signature can move its receipt, and only back to itself.
  const walletParams = dareIdParamsSchema.extend({ wallet: z.string().max(64) });

  app.get(
    '/api/dares/:id/wallets/:wallet/refund-status',
    {
      schema: {
        tags: ['refunds'],
        summary: "Whether this wallet can take its SOL back from the dare's vault now, and how much",
        params: walletParams,
        response: { 200: refundStatusSchema, ...errors },
      },
    },
    async (request) => refundMe.walletStatus(request.params.wallet, request.ip, request.params.id),
  );

  app.post(
    '/api/dares/:id/wallets/:wallet/refund-transaction',
    {
      schema: {
        tags: ['refunds'],
        summary:
          "'Refund me' by wallet: the `refund` of its receipt; the wallet is the fee payer and the only signer",
        params: walletParams,
        response: { 200: refundTransactionResponseSchema, ...errors },
      },
    },
    async (request) => refundMe.walletTransaction(request.params.wallet, request.ip, request.params.id),
  );

  app.post(
    '/api/dares/:id/wallets/:wallet/refund',
    {
      schema: {
        tags: ['refunds'],
        summary:
          "Relays the wallet's signed refund (the one prepared for it, unchanged), waits for it and books it",
        params: walletParams,
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) =>
      refundMe.walletRefund(
        request.params.wallet,
        request.ip,
        request.params.id,
        request.body.signedTransaction,
      ),
  );
};
