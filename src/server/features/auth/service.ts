import { AUTH_MESSAGES, type SignInInput, type WalletLoginRequest } from '#contract/auth';
import type { Cluster } from '#contract/config';
import { DAY_MS } from '#contract/time';
import type { AppConfig } from '#server/config';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, conflict } from '#server/errors';
import { isSettingEnabled, SETTING_KEYS } from '#server/features/settings/switches';
import { type RateLimiter, tooManyRequests } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import { countLoginAttempt, failedLoginRules, SIGN_IN_ADDRESS_MEMORY_MS } from './failed-logins';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import * as repo from './repo';
import { type SignInSite, signInSiteFor } from './sign-in-site';
import { createSignInChallenge, SIGN_IN_FAILURE_MESSAGES, verifySignInProof } from './siws';
import { hashToken, newOpaqueToken } from './tokens';
import type { UserRow } from './user';

export const SESSION_TTL_MS = 30 * DAY_MS;
export const REGISTRATION_TOKEN_TTL_MS = 15 * 60 * 1000;

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  cluster: Cluster;
  config: Pick<AppConfig, 'adminWallets' | 'rateLimits' | 'publicSite' | 'port'>;
  limiter: RateLimiter;
}

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

export function createAuthService({ db, clock, cluster, config, limiter }: AuthServiceDeps) {
  /** A session for `user`, signed in from `ip` (remembered: see failed-logins.ts). */
  async function startSession(user: UserRow, ip?: string): Promise<{ user: UserRow; token: string }> {
    const now = clock();
    if (ip !== undefined) await repo.rememberSignInAddress(db, user.id, ip, now);
    // ADMIN_WALLETS bootstraps the first admin without touching the database by hand.
    const promoted =
      !user.isAdmin && user.walletAddress && config.adminWallets.includes(user.walletAddress)
        ? await repo.setAdmin(db, user.id, now)
        : user;
    const { token, hash } = newOpaqueToken();
    await repo.insertSession(db, promoted.id, hash, new Date(now.getTime() + SESSION_TTL_MS));
    return { user: promoted, token };
  }

  const sessionEnded = new Set<(tokenHash: string) => void>();

  return {
    async limitByIp(ip: string) {
      const result = await limiter.hit(`auth-ip:${ip}`, {
        ...RATE_LIMITS.signInRequests,
        limit: config.rateLimits.authPerMinute,
      });
      if (!result.allowed) {
        throw tooManyRequests(
          'Too many sign-in requests from your network. Please wait a minute.',
          result.retryAfterSeconds,
        );
      }
    },

    /** The site SIWS binds to for this request (PUBLIC_URL, or a loopback Host); 400 otherwise. */
    signInSite(request: { host: string; protocol: string }): SignInSite {
      return signInSiteFor(config, request);
    },

    async issueChallenge(walletAddress: string, site: SignInSite) {
      const now = clock();
      const challenge = createSignInChallenge({ walletAddress, ...site, cluster, now });
      await repo.insertChallenge(db, challenge, now);
      return { input: challenge.input satisfies SignInInput, message: challenge.message };
    },

    async walletLogin(body: WalletLoginRequest, domain: string, ip: string): Promise<WalletLoginResult> {
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
      if (user) return { kind: 'signed-in', ...(await startSession(user, ip)) };
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
    },

    async register(body: {
      username: string;
      password: string;
      walletAddress: string;
      registrationToken: string;
    }) {
      if (!(await isSettingEnabled(db, SETTING_KEYS.registrationEnabled))) {
        throw new AppError('REGISTRATION_DISABLED', AUTH_MESSAGES.registrationDisabled);
      }
      const passwordHash = await hashPassword(body.password);
      const user = await db
        .transaction(async (tx) => {
          const now = clock();
          if (await repo.findUserByWallet(tx, body.walletAddress)) throw conflict(AUTH_MESSAGES.walletTaken);
          if (await repo.findUserByUsername(tx, body.username)) throw conflict(AUTH_MESSAGES.usernameTaken);
          // Consumed in the same transaction as the insert: a failed insert leaves the token usable.
          if (
            !(await repo.consumeRegistrationToken(
              tx,
              hashToken(body.registrationToken),
              body.walletAddress,
              now,
            ))
          ) {
            throw new AppError(
              'INVALID_SIGN_IN',
              'Wallet ownership is not proven or the proof expired. Please connect your wallet again.',
            );
          }
          return repo.insertUser(tx, {
            username: body.username,
            passwordHash,
            walletAddress: body.walletAddress,
            isAdmin: config.adminWallets.includes(body.walletAddress),
          });
        })
        .catch((error: unknown) => {
          // Two concurrent registrations: the database's unique index decides, and we say which.
          const constraint = error as { cause?: { constraint?: string }; constraint?: string };
          const name = constraint.constraint ?? constraint.cause?.constraint;
          if (name === 'users_username_unique') throw conflict(AUTH_MESSAGES.usernameTaken);
          if (name === 'users_wallet_address_unique') throw conflict(AUTH_MESSAGES.walletTaken);
          throw error;
        });
      return startSession(user);
    },

    /**
     * Every attempt is counted before the password is checked, so parallel guesses cannot all
     * pass the check at once; the owner's successful attempt is given back. Strangers' guesses
     * from elsewhere only slow down attempts from addresses the account never signed in from.
     */
    async passwordLogin(body: { username: string; password: string }, ip: string) {
      const since = new Date(clock().getTime() - SIGN_IN_ADDRESS_MEMORY_MS);
      const known = await repo.hasSignedInFrom(db, body.username.trim(), ip, since);
      const counted = await countLoginAttempt(
        limiter,
        failedLoginRules(body.username, ip, config.rateLimits),
        known,
      );
      const user = await repo.findUserByUsername(db, body.username.trim());
      // An unknown user still costs one scrypt, so timing does not reveal which usernames exist.
      const valid = await verifyPassword(body.password, user?.password ?? (await dummyPasswordHash()));
      if (!user || !valid) throw new AppError('INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials);
      await Promise.all(counted.map((key) => limiter.release(key)));
      return startSession(user, ip);
    },

    async logout(tokenHash: string) {
      await repo.revokeSession(db, tokenHash, clock());
      for (const listener of sessionEnded) listener(tokenHash);
    },

    /** Told after a logout, e.g. so the chat signs that session's open sockets out. */
    onSessionEnded(listener: (tokenHash: string) => void) {
      sessionEnded.add(listener);
    },

    findUserByWallet: (walletAddress: string) => repo.findUserByWallet(db, walletAddress),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
