import { DAY_MS } from '#contract/time';
import type { AuthServiceDeps } from './auth-deps';
import * as repo from './repo';
import { newOpaqueToken } from './tokens';
import type { UserRow } from './user';

export const SESSION_TTL_MS = 30 * DAY_MS;

/** A session for `user`, signed in from `ip` (remembered: see failed-logins.ts). */
export async function startSession(
  { db, clock, config }: AuthServiceDeps,
  user: UserRow,
  ip?: string,
): Promise<{ user: UserRow; token: string }> {
  const now = clock();
  if (ip !== undefined) await repo.rememberSignInAddress(db, user.id, ip, now);
  // ADMIN_WALLETS bootstraps the first admin without touching the database by hand.
  const promoted =
    !user.isAdmin && user.walletAddress && config.adminWallets.includes(user.walletAddress)
      ? await repo.setAdmin(db, user.id, now)
      : user;
  const { token, hash } = newOpaqueToken();
  await repo.insertSession(db, promoted.id, hash, new Date(now.getTime() + SESSION_TTL_MS));
  return { user: promoted, token };
}
