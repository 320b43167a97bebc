/**
 * Accounts and sign-in. The parts, each a module of named functions taking the deps first:
 * wallet-sign-in.ts (Sign in with Solana), register.ts, password-sign-in.ts, start-session.ts,
 * sign-out.ts, sign-in-limit.ts (requests per address). This module only puts them together under
 * the names callers use.
 */
import type { WalletLoginRequest } from '#contract/auth';
import type { AuthServiceDeps } from './auth-deps';
import { passwordLogin } from './password-sign-in';
import { register } from './register';
import * as repo from './repo';
import { limitSignInsByIp } from './sign-in-limit';
import { type SignInSite, signInSiteFor } from './sign-in-site';
import { logout, type SessionEndedListeners } from './sign-out';
import { issueChallenge, walletLogin } from './wallet-sign-in';

export type { AuthServiceDeps } from './auth-deps';
export { SESSION_TTL_MS } from './start-session';
export { REGISTRATION_TOKEN_TTL_MS, type WalletLoginResult } from './wallet-sign-in';

export function createAuthService(deps: AuthServiceDeps) {
  const sessionEnded: SessionEndedListeners = new Set();
  return {
    limitByIp: (ip: string) => limitSignInsByIp(deps, ip),
    /** The site SIWS binds to for this request (PUBLIC_URL, or a loopback Host); 400 otherwise. */
    signInSite: (request: { host: string; protocol: string }): SignInSite =>
      signInSiteFor(deps.config, request),
    issueChallenge: (walletAddress: string, site: SignInSite) => issueChallenge(deps, walletAddress, site),
    walletLogin: (body: WalletLoginRequest, domain: string, ip: string) =>
      walletLogin(deps, body, domain, ip),
    register: (body: {
      username: string;
      password: string;
      walletAddress: string;
      registrationToken: string;
    }) => register(deps, body),
    passwordLogin: (body: { username: string; password: string }, ip: string) =>
      passwordLogin(deps, body, ip),
    logout: (tokenHash: string) => logout(deps, sessionEnded, tokenHash),
    /** Told after a logout, e.g. so the chat signs that session's open sockets out. */
    onSessionEnded(listener: (tokenHash: string) => void) {
      sessionEnded.add(listener);
    },
    findUserByWallet: (walletAddress: string) => repo.findUserByWallet(deps.db, walletAddress),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
