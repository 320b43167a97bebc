import type { AuthResponse, LoginRequest } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/auth/login: username and password. */
export function login(input: LoginRequest): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/auth/login', input);
}
