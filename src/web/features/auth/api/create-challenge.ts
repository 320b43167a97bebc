import type { SignInInput } from '#contract/auth';
import { apiRequest } from '#web/lib/api-client';

export interface Challenge {
  /** The Sign-In With Solana input for wallets with `solana:signIn`. */
  input: SignInInput;
  /** The same statement as text, for wallets that only sign messages. */
  message: string;
}

/** POST /api/auth/challenge: a single-use sign-in message for this wallet. */
export function createChallenge(walletAddress: string): Promise<Challenge> {
  return apiRequest<Challenge>('POST', '/api/auth/challenge', { walletAddress });
}
