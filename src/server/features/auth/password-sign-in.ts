import { AUTH_MESSAGES } from '#contract/auth';
import { AppError } from '#server/errors';
import type { AuthServiceDeps } from './auth-deps';
import { countLoginAttempt, failedLoginRules, SIGN_IN_ADDRESS_MEMORY_MS } from './failed-logins';
import { dummyPasswordHash, verifyPassword } from './password';
import * as repo from './repo';
import { startSession } from './start-session';

/**
 * Every attempt is counted before the password is checked, so parallel guesses cannot all
 * pass the check at once; the owner's successful attempt is given back. Strangers' guesses
 * from elsewhere only slow down attempts from addresses the account never signed in from.
 */
export async function passwordLogin(
  deps: AuthServiceDeps,
  body: { username: string; password: string },
  ip: string,
) {
  const { db, clock, config, limiter } = deps;
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
  return startSession(deps, user, ip);
}
