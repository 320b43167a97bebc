import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { profileSchema } from '#contract/profile';
import type { Db } from '#server/db/client';
import { errorResponses } from '#server/errors';
import { toPublicUser } from '#server/features/auth/public-user';
import { userOf } from '#server/plugins/route-auth';
import { findProfileUser, profileActivity } from './repo';

export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/profile',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['profile'],
        summary: "The session user's record, counts and recent activity",
        response: { 200: profileSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const session = userOf(request);
      // Re-read: the session's row was loaded before any payout in this request's lifetime.
      const user = (await findProfileUser(db, session.id)) ?? session;
      return { user: toPublicUser(user), ...(await profileActivity(db, user.id)) };
    },
  );
};
