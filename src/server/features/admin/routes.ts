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
import { errorResponses } from '#server/errors';
import { toPublicUser } from '#server/features/auth/public-user';
import type { JudgingService } from '#server/features/judging/service';
import type { VideoAccess } from '#server/features/submissions/video-access';
import { userOf } from '#server/plugins/route-auth';
import type { AdminService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 503);

/**
 * The admin panel's API. Every route here is admin-only (`config: { auth: 'admin' }`), checked
 * before the body is even read, so a normal user gets 403 whatever they send.
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
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Admin stat cards',
        response: { 200: adminStatsSchema, ...errors },
      },
    },
    async () => admin.stats(),
  );

  app.get(
    '/api/admin/fee-payer',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "The payout fee payer's address and balance (fund it on a real cluster)",
        response: { 200: feePayerStatusSchema, ...errors },
      },
    },
    async () => feePayerStatus(),
  );

  app.get(
    '/api/admin/dares',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
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
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Name an approved submission the winner of its community dare: on a v2 vault the propose for the judge to sign, then its relay (200); on a v1 vault the prize claim (201)',
        params: idParamsSchema,
        body: markWinnerRequestSchema,
        response: { 200: markWinnerResponseSchema, 201: claimSchema, ...errors },
      },
    },
    async (request, reply) => {
      const judged = await judging.markWinner(userOf(request), request.params.id, request.body);
      if (judged) return reply.status(200).send(judged);
      return reply.status(201).send(await admin.markWinner(request.params.id, request.body.dareId));
    },
  );

  app.get(
    '/api/admin/proposals',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Payout proposals being signed by judges or in their window, soonest payout first',
        response: { 200: adminProposalListSchema, ...errors },
      },
    },
    async () => judging.adminProposals(),
  );
};
