import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../contract/errors';
import { idParam } from '../../../contract/ids';
import { publicUserSchema } from '../../../contract/users';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../errors';
import { requireAdmin } from '../../plugins/authenticate';
import { setAdminById } from '../auth/promote';
import { toPublicUser } from '../auth/public-user';

/** Admins grant or take admin rights from the panel; the CLI and ADMIN_WALLETS make the first one. */
export const userAdminRoutes: FastifyPluginAsyncZod<{ db: Db; clock: () => Date }> = async (
  app,
  { db, clock },
) => {
  app.patch(
    '/api/admin/users/:id/role',
    {
      schema: {
        tags: ['admin'],
        summary: 'Grant or remove admin rights',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: idParam() }),
        body: z.object({ isAdmin: z.boolean() }),
        response: {
          200: publicUserSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      // An admin cannot demote themselves, so the platform never loses its last admin by accident.
      if (admin.id === request.params.id && !request.body.isAdmin)
        throw conflict('You cannot remove your own admin rights');
      const user = await setAdminById(db, request.params.id, request.body.isAdmin, clock());
      if (!user) throw notFound('User not found');
      return toPublicUser(user);
    },
  );
};
