import type { AuthResponse } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

export interface WalletLoginInput {
  walletAddress: string;
  /** base64 of the exact bytes the wallet signed. */
  signedMessage: string;
  /** base64 ed25519 signature. */
  signature: string;
}

/**
 * POST /api/auth/wallet-login. An unregistered wallet answers 404 with code
 * WALLET_NOT_REGISTERED and a registrationToken in the body.
 */
export function walletLogin(input: WalletLoginInput): Promise<AuthResponse> {
  return apiRequest<AuthResponse>('POST', '/api/auth/wallet-login', input);
}
