import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  airdropRequestSchema,
  airdropResponseSchema,
  checkBalanceRequestSchema,
  checkBalanceResponseSchema,
  createEscrowWalletResponseSchema,
  createTransactionRequestSchema,
  createTransactionResponseSchema,
  sendTransactionRequestSchema,
  sendTransactionResponseSchema,
  signatureSchema,
  transactionViewSchema,
} from '#contract/payments';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { PaymentsService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 429, 503);

/** The chain-facing calls of docs/product.md#payment-calls, plus test SOL and the local explorer. */
export const paymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  app.post(
    '/api/check-balance',
    {
      // A read sent as POST: it must not make every instance forget its cached pages.
      config: { readOnly: true },
      schema: {
        tags: ['payments'],
        summary: "A wallet's balance on the configured cluster, in lamports",
        body: checkBalanceRequestSchema,
        response: { 200: checkBalanceResponseSchema, ...errors },
      },
    },
    async (request) => ({
      balance: (await payments.checkBalance(request.body.walletAddress, request.ip)).toString(),
    }),
  );

  app.post(
    '/api/create-escrow-wallet',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['payments'],
        summary: 'Reserve a fresh escrow address for a new dare (30 minutes)',
        response: { 200: createEscrowWalletResponseSchema, ...errors },
      },
    },
    async (request) => payments.reserveEscrow(userOf(request)),
  );

  app.post(
    '/api/create-transaction',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['payments'],
        summary: 'Build the unsigned transfer of a stake or contribution and record its payment request',
        body: createTransactionRequestSchema,
        response: { 200: createTransactionResponseSchema, ...errors },
      },
    },
    async (request) => payments.createTransaction(userOf(request), request.body),
  );

  app.post(
    '/api/send-transaction',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['payments'],
        summary: 'Relay a signed payment transaction and wait for its confirmation',
        body: sendTransactionRequestSchema,
        response: { 200: sendTransactionResponseSchema, ...errors },
      },
    },
    async (request) => ({
      signature: await payments.sendTransaction(userOf(request), request.body.signedTransaction),
    }),
  );

  app.post(
    '/api/dev/airdrop',
    {
      schema: {
        tags: ['payments'],
        summary: 'Test SOL on the embedded chain (404 on a real cluster)',
        body: airdropRequestSchema,
        response: { 200: airdropResponseSchema, ...errors },
      },
    },
    async (request) => payments.airdrop(request.body.walletAddress, request.body.amount, request.ip),
  );

  app.get(
    '/api/transactions/:signature',
    {
      schema: {
        tags: ['payments'],
        summary: 'One confirmed transaction, for the local explorer page',
        params: z.object({ signature: signatureSchema }),
        response: { 200: transactionViewSchema, ...errors },
      },
    },
    async (request) => payments.transaction(request.params.signature, request.ip),
  );
};
