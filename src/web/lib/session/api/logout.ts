import { apiRequest } from '#web/lib/api-client';

/** POST /api/auth/logout: revokes the session token on the server. */
export function logout(): Promise<void> {
  return apiRequest<void>('POST', '/api/auth/logout');
}
