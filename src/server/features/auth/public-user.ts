import { normalizeSol } from '#contract/money';
import type { PublicUser } from '#contract/users';
import type { UserRow } from './user';

/** The only way a user leaves the server: an allow-list of fields, never the password hash. */
export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    walletAddress: row.walletAddress,
    isAdmin: row.isAdmin,
    totalEarnings: normalizeSol(row.totalEarnings),
    dareWins: row.dareWins,
    reputation: row.reputation,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
