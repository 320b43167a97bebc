import type { PublicUser } from '#contract/users';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { conflict, notFound } from '#server/errors';
import { setAdminById } from '#server/features/auth/promote';
import { toPublicUser } from '#server/features/auth/public-user';

/** Admin rights granted from the panel; the CLI and ADMIN_WALLETS make the first admin. */
export function createUsersService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async setAdmin(actor: { id: number }, userId: number, isAdmin: boolean): Promise<PublicUser> {
      // An admin cannot demote themselves, so the platform never loses its last admin by accident.
      if (actor.id === userId && !isAdmin) throw conflict('You cannot remove your own admin rights');
      const user = await setAdminById(db, userId, isAdmin, clock());
      if (!user) throw notFound('User not found');
      return toPublicUser(user);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
