import type { PublicUser } from '#contract/users';
import { apiGet } from '#web/lib/api-client';

/** GET /api/auth/me: the signed-in user's current record (the top bar's Refresh). */
export async function getMe(): Promise<PublicUser> {
  const { user } = await apiGet<{ user: PublicUser }>('/api/auth/me');
  return user;
}
