import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '#contract/ids';
import { publicUserSchema } from '#contract/users';
import { errorResponses } from '#server/errors';
import { userOf } from '#server/plugins/route-auth';
import type { UsersService } from './service';

export const userAdminRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.patch(
    '/api/admin/users/:id/role',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Grant or remove admin rights',
        params: z.object({ id: idParam() }),
        body: z.object({ isAdmin: z.boolean() }),
        response: {
          200: publicUserSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => users.setAdmin(userOf(request), request.params.id, request.body.isAdmin),
  );
};
