import { AUTH_MESSAGES } from '#contract/auth';
import { AppError, conflict } from '#server/errors';
import { isSettingEnabled, SETTING_KEYS } from '#server/features/settings/switches';
import type { AuthServiceDeps } from './auth-deps';
import { hashPassword } from './password';
import * as repo from './repo';
import { startSession } from './start-session';
import { hashToken } from './tokens';

/** Register: an account for the wallet a registration token proves, signed in at once. */
export async function register(
  deps: AuthServiceDeps,
  body: { username: string; password: string; walletAddress: string; registrationToken: string },
) {
  const { db, clock, config } = deps;
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
        !(await repo.consumeRegistrationToken(tx, hashToken(body.registrationToken), body.walletAddress, now))
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
  return startSession(deps, user);
}
