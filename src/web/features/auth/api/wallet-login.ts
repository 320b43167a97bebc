import type { AuthResponse, WalletLoginRequest } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

/**
 * POST /api/auth/wallet-login with the signed message and signature (base64). An unregistered
 * wallet answers 404 with code WALLET_NOT_REGISTERED and a registrationToken in the body.
 */
export function walletLogin(input: Required<WalletLoginRequest>): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/auth/wallet-login', input);
}
