/**
 * Sign in with Solana: the challenge a wallet signs, and its signed proof checked. A known wallet
 * gets a session; an unknown one a registration token for Register (register.ts).
 */
import type { SignInInput, WalletLoginRequest } from '#contract/auth';
import { AppError } from '#server/errors';
import type { AuthServiceDeps } from './auth-deps';
import * as repo from './repo';
import type { SignInSite } from './sign-in-site';
import { createSignInChallenge, SIGN_IN_FAILURE_MESSAGES, verifySignInProof } from './siws';
import { startSession } from './start-session';
import { newOpaqueToken } from './tokens';
import type { UserRow } from './user';

export const REGISTRATION_TOKEN_TTL_MS = 15 * 60 * 1000;

export type WalletLoginResult =
  | { kind: 'signed-in'; user: UserRow; token: string }
  | { kind: 'unregistered'; registrationToken: string };

function decodeBase64(text: string | undefined): Uint8Array | null {
  if (!text) return null;
  const bytes = Buffer.from(text, 'base64');
  // Buffer.from ignores junk; a round trip tells a real encoding from garbage.
  if (bytes.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) return null;
  return new Uint8Array(bytes);
}

export async function issueChallenge(
  { db, clock, cluster }: AuthServiceDeps,
  walletAddress: string,
  site: SignInSite,
) {
  const now = clock();
  const challenge = createSignInChallenge({ walletAddress, ...site, cluster, now });
  await repo.insertChallenge(db, challenge, now);
  return { input: challenge.input satisfies SignInInput, message: challenge.message };
}

export async function walletLogin(
  deps: AuthServiceDeps,
  body: WalletLoginRequest,
  domain: string,
  ip: string,
): Promise<WalletLoginResult> {
  const { db, clock } = deps;
  const signedMessage = decodeBase64(body.signedMessage);
  const signature = decodeBase64(body.signature);
  if (!body.signedMessage || !body.signature) {
    throw new AppError('INVALID_SIGN_IN', SIGN_IN_FAILURE_MESSAGES['missing-proof']);
  }
  if (!signedMessage || !signature) {
    throw new AppError('INVALID_SIGN_IN', SIGN_IN_FAILURE_MESSAGES['malformed-proof']);
  }
  const verdict = await verifySignInProof(
    { walletAddress: body.walletAddress, signedMessage, signature },
    { domain, now: clock(), store: repo.challengeStore(db) },
  );
  if (!verdict.ok) throw new AppError('INVALID_SIGN_IN', SIGN_IN_FAILURE_MESSAGES[verdict.reason]);

  const user = await repo.findUserByWallet(db, body.walletAddress);
  if (user) return { kind: 'signed-in', ...(await startSession(deps, user, ip)) };
  const now = clock();
  const { token, hash } = newOpaqueToken();
  await repo.insertRegistrationToken(
    db,
    {
      tokenHash: hash,
      walletAddress: body.walletAddress,
      expiresAt: new Date(now.getTime() + REGISTRATION_TOKEN_TTL_MS),
    },
    now,
  );
  return { kind: 'unregistered', registrationToken: token };
}
