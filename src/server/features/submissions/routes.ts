import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dareIdParamsSchema } from '#contract/dares';
import {
  dareOutcomeSchema,
  dareSubmissionsParamsSchema,
  enterTransactionRequestSchema,
  enterTransactionResponseSchema,
  myVotesSchema,
  submissionIdParamsSchema,
  submissionListSchema,
  submissionSchema,
  submitVideoRequestSchema,
  userVotesParamsSchema,
  voteInfoSchema,
  voteResponseSchema,
  votingRightsSchema,
} from '#contract/submissions';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { SubmissionsService } from './service';

const errors = errorResponses(400, 401, 403, 404, 409);
const chainErrors = errorResponses(400, 401, 403, 404, 409, 429, 503);

export const submissionRoutes: FastifyPluginAsyncZod<{ submissions: SubmissionsService }> = async (
  app,
  { submissions },
) => {
  const list = { response: { 200: submissionListSchema, ...errors }, tags: ['submissions'] };

  app.post(
    '/api/dares/:id/enter-transaction',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary:
          "The caller's `enter` transaction for the dare's vault: the wallet pays its fee and rent and is its only signer, and Submit Video sends it signed. On an escrow v2 vault it carries the fingerprint of `videoUrl` (SHA-256 of the uploaded file, or of the link's URL), which submit must then name",
        params: dareIdParamsSchema,
        body: enterTransactionRequestSchema,
        response: { 200: enterTransactionResponseSchema, ...chainErrors },
      },
    },
    async (request) => submissions.enterTransaction(userOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/dares/:id/submit',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary:
          "Submit a video proof: the signed entry is relayed and confirmed on chain first (left out only when the caller's entry exists); pending until an admin approves it",
        params: dareIdParamsSchema,
        body: submitVideoRequestSchema,
        response: { 201: submissionSchema, ...chainErrors },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      reply.code(201);
      return submissions.submit(user, request.params.id, request.body);
    },
  );

  app.get(
    '/api/featured-submissions',
    { schema: { ...list, summary: 'Featured approved videos' } },
    async () => submissions.featured(),
  );
  app.get(
    '/api/submissions',
    {
      schema: {
        ...list,
        summary: "The current major dare's submissions (public ones, and the caller's own)",
      },
    },
    async (request) => submissions.ofDare(null, request.user?.id ?? null),
  );
  app.get(
    '/api/submissions/:dareId',
    {
      schema: {
        ...list,
        summary: "A dare's submissions: approved and winners, plus the caller's own of any status",
        params: dareSubmissionsParamsSchema,
      },
    },
    async (request) => submissions.ofDare(request.params.dareId, request.user?.id ?? null),
  );
  app.get(
    '/api/approved-submissions',
    { schema: { ...list, summary: "The current major dare's approved submissions" } },
    async () => submissions.approvedOf(null),
  );
  app.get(
    '/api/approved-submissions/:dareId',
    { schema: { ...list, summary: "A dare's approved submissions", params: dareSubmissionsParamsSchema } },
    async (request) => submissions.approvedOf(request.params.dareId),
  );

  app.post(
    '/api/submissions/:id/vote',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary: 'Vote for an approved submission: 3 votes per user per dare, not your own',
        params: submissionIdParamsSchema,
        response: { 200: voteResponseSchema, ...errors },
      },
    },
    async (request) => submissions.vote(userOf(request), request.params.id),
  );
  app.get(
    '/api/voting-rights',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary:
          "What the session user may vote on: the Major Dare's submissions need one verified stake or pool contribution first",
        response: { 200: votingRightsSchema, ...errorResponses(401) },
      },
    },
    async (request) => submissions.votingRights(userOf(request)),
  );
  app.get(
    '/api/dares/:dareId/my-votes',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary: "The session user's votes on a dare: how many, and for which submissions",
        params: dareSubmissionsParamsSchema,
        response: { 200: myVotesSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => submissions.myVotes(userOf(request), request.params.dareId),
  );
  app.get(
    '/api/user/:userId/votes/dare/:dareId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['submissions'],
        summary: 'How many of your 3 votes you have used on a dare (only for yourself: 403 for anyone else)',
        params: userVotesParamsSchema,
        response: { 200: voteInfoSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      voteCount: await submissions.votesUsed(userOf(request), request.params.userId, request.params.dareId),
    }),
  );

  app.get(
    '/api/dares/:dareId/outcome',
    {
      schema: {
        tags: ['submissions'],
        summary: 'How a dare ended so far: whether votes still count, and its winners with their payouts',
        params: dareSubmissionsParamsSchema,
        response: { 200: dareOutcomeSchema, ...errors },
      },
    },
    async (request) => submissions.outcome(request.params.dareId),
  );
};
