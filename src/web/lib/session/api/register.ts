import type { AuthResponse } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

export interface RegisterInput {
  username: string;
  password: string;
  walletAddress: string;
  /** Issued by wallet-login for this wallet: proof that its owner signed in a moment ago. */
  registrationToken: string;
}

/** POST /api/auth/register. */
export function register(input: RegisterInput): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/auth/register', input);
}
