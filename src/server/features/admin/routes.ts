import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminSubmission, FeePayerStatus } from '#contract/admin';
import {
  adminDareListQuerySchema,
  adminDareSchema,
  adminStatsSchema,
  adminSubmissionListQuerySchema,
  adminSubmissionSchema,
  adminUserListQuerySchema,
  deleteDareResponseSchema,
  feePayerStatusSchema,
  idParamsSchema,
  markWinnerRequestSchema,
  updateDareStatusRequestSchema,
  updateDareStatusResponseSchema,
  updateSubmissionRequestSchema,
} from '#contract/admin';
import { claimSchema } from '#contract/claims';
import { adminProposalListSchema, markWinnerResponseSchema } from '#contract/judging';
import { publicUserSchema } from '#contract/users';
import { errorResponses } from '../../errors';
import { requireAdmin } from '../../plugins/authenticate';
import { toPublicUser } from '../auth/public-user';
import type { JudgingService } from '../judging/service';
import type { VideoAccess } from '../submissions/video-access';
import type { AdminService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 503);
const secured = { tags: ['admin'], security: [{ bearerAuth: [] }] };

/**
 * The admin panel's API. Every route here is admin-only, checked before the body is even read,
 * so a normal user gets 403 whatever they send.
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  admin: AdminService;
  feePayerStatus: () => Promise<FeePayerStatus>;
  videoAccess: VideoAccess;
  judging: JudgingService;
}> = async (app, { admin, feePayerStatus, videoAccess, judging }) => {
  // The admin plays pending videos too: through links signed for a few minutes.
  const withSource = (record: Omit<AdminSubmission, 'videoSrc'>): AdminSubmission => ({
    ...record,
    videoSrc: videoAccess.sourceFor(record),
  });

  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  // Clients may send DELETE with a JSON content type and no body (docs/product.md#admin-calls): read that as no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      (error as { statusCode?: number }).statusCode = 400;
      done(error as Error, undefined);
    }
  });

  app.get(
    '/api/admin/stats',
    { schema: { ...secured, summary: 'Admin stat cards', response: { 200: adminStatsSchema, ...errors } } },
    async () => admin.stats(),
  );

  app.get(
    '/api/admin/fee-payer',
    {
      schema: {
        ...secured,
        summary: "The payout fee payer's address and balance (fund it on a real cluster)",
        response: { 200: feePayerStatusSchema, ...errors },
      },
    },
    async () => feePayerStatus(),
  );

  app.get(
    '/api/admin/dares',
    {
      schema: {
        ...secured,
        summary:
          'Every dare (major ones included), newest first; q searches title and description, major filters',
        querystring: adminDareListQuerySchema,
        response: { 200: z.array(adminDareSchema), ...errors },
      },
    },
    async (request) => admin.listDares(request.query),
  );

  app.get(
    '/api/admin/submissions',
    {
      schema: {
        ...secured,
        summary: 'Submissions to moderate, newest first',
        querystring: adminSubmissionListQuerySchema,
        response: { 200: z.array(adminSubmissionSchema), ...errors },
      },
    },
    async (request) => (await admin.listSubmissions(request.query)).map(withSource),
  );

  app.get(
    '/api/admin/users',
    {
      schema: {
        ...secured,
        summary: 'Every user, newest first; q searches username and wallet',
        querystring: adminUserListQuerySchema,
        response: { 200: z.array(publicUserSchema), ...errors },
      },
    },
    async (request) => (await admin.listUsers(request.query.q)).map(toPublicUser),
  );

  app.patch(
    '/api/admin/dares/:id/status',
    {
      schema: {
        ...secured,
        summary: 'Activate or deactivate a dare; deactivating refunds every contribution',
        params: idParamsSchema,
        body: updateDareStatusRequestSchema,
        response: { 200: updateDareStatusResponseSchema, ...errors },
      },
    },
    async (request) => admin.setDareStatus(request.params.id, request.body.status),
  );

  app.delete(
    '/api/admin/dares/:id',
    {
      schema: {
        ...secured,
        summary: 'Delete a dare; one that holds money is refunded first',
        params: idParamsSchema,
        response: { 200: deleteDareResponseSchema, ...errors },
      },
    },
    async (request) => admin.deleteDare(request.params.id),
  );

  app.put(
    '/api/admin/submissions/:id',
    {
      schema: {
        ...secured,
        summary: 'Approve, reject or feature a submission',
        params: idParamsSchema,
        body: updateSubmissionRequestSchema,
        response: { 200: adminSubmissionSchema, ...errors },
      },
    },
    async (request) => withSource(await admin.updateSubmission(request.params.id, request.body)),
  );

  app.post(
    '/api/admin/submissions/:id/mark-winner',
    {
      schema: {
        ...secured,
        summary:
          'Name an approved submission the winner of its community dare: on a v2 vault the propose for the judge to sign, then its relay (200); on a v1 vault the prize claim (201)',
        params: idParamsSchema,
        body: markWinnerRequestSchema,
        response: { 200: markWinnerResponseSchema, 201: claimSchema, ...errors },
      },
    },
    async (request, reply) => {
      const judged = await judging.markWinner(requireAdmin(request), request.params.id, request.body);
      if (judged) return reply.status(200).send(judged);
      return reply.status(201).send(await admin.markWinner(request.params.id, request.body.dareId));
    },
  );

  app.get(
    '/api/admin/proposals',
    {
      schema: {
        ...secured,
        summary: 'Payout proposals being signed by judges or in their window, soonest payout first',
        response: { 200: adminProposalListSchema, ...errors },
      },
    },
    async () => judging.adminProposals(),
  );
};
