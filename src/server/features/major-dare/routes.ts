import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dareIdParamsSchema } from '#contract/admin';
import { claimSchema } from '#contract/claims';
import { dareSchema } from '#contract/dares';
import { markWinnerResponseSchema } from '#contract/judging';
import {
  createMajorDareRequestSchema,
  majorDareSchema,
  selectMajorWinnerRequestSchema,
  selectMajorWinnersRequestSchema,
} from '#contract/major-dare';
import { AppError, errorResponses } from '#server/errors';
import type { JudgingService } from '#server/features/judging/service';
import { userOf } from '#server/plugins/route-auth';
import type { MajorDareService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409, 503);

export const majorDareRoutes: FastifyPluginAsyncZod<{
  majorDare: MajorDareService;
  judging: JudgingService;
}> = async (app, { majorDare, judging }) => {
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

  app.post(
    '/api/admin/major-dare',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Create a major dare from the admin's prize payment verified on chain",
        body: createMajorDareRequestSchema,
        response: { 200: dareSchema, 201: dareSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { dare, created } = await majorDare.create(userOf(request), request.body);
      return reply.status(created ? 201 : 200).send(dare);
    },
  );

  app.post(
    '/api/admin/major-dare/:dareId/winner',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Select the admin (70%) or community (30%) winner of a major dare; on a v2 vault the pick completing the pair answers the propose for the judge to sign, and the same call with it signed relays it (200)',
        params: dareIdParamsSchema,
        body: selectMajorWinnerRequestSchema,
        response: { 200: markWinnerResponseSchema, 201: claimSchema, ...errors },
      },
    },
    async (request, reply) => {
      const admin = userOf(request);
      const { dareId } = request.params;
      const { submissionId, winnerType, signedTransaction } = request.body;
      const judged = await judging.isJudged(dareId);
      if (judged && signedTransaction)
        return reply.status(200).send((await judging.relayMajor(admin, dareId, signedTransaction))!);
      if (judged) await judging.requireMajorJudge(admin, dareId);
      // Each pick is recorded as on a v1 vault; the same pick again (a judge asking for the
      // propose anew) is not recorded twice.
      const repeated = judged && (await judging.isRecordedPick(dareId, winnerType, submissionId));
      const claim = repeated ? null : await majorDare.selectWinner(dareId, submissionId, winnerType);
      const propose = judged ? await judging.majorPicks(admin, dareId) : null;
      if (propose) return reply.status(200).send(propose);
      if (!claim) throw new AppError('CONFLICT', 'Both winners must be picked before they are proposed');
      return reply.status(201).send(claim);
    },
  );

  app.post(
    '/api/admin/major-dare/:dareId/winners',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          "Name both winners of a judged Major Dare (v2 vault) in one propose: without signedTransaction it records nothing and answers the propose naming the admin's (70%) and the community's (30%) picks; with it signed by the judge's wallet it records both picks and relays it",
        params: dareIdParamsSchema,
        body: selectMajorWinnersRequestSchema,
        response: { 200: markWinnerResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = userOf(request);
      const { dareId } = request.params;
      const { adminSubmissionId, communitySubmissionId, signedTransaction } = request.body;
      const picks = { admin: adminSubmissionId, community: communitySubmissionId };
      await judging.requireMajorPairJudge(admin, dareId);
      await majorDare.checkPicks(dareId, picks);
      if (!signedTransaction) return judging.offerMajorPair(admin, dareId, picks);
      // Recorded only for the very propose the judge signed, so a stale or foreign one records nothing.
      await judging.requireMajorPairProposal(admin, dareId, picks, signedTransaction);
      await majorDare.recordPicks(dareId, picks);
      return (await judging.relayMajor(admin, dareId, signedTransaction))!;
    },
  );
};
