import type { AuthResponse, RegisterRequest } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/auth/register, with the registrationToken wallet-login issued for this wallet. */
export function register(input: RegisterRequest): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/auth/register', input);
}
