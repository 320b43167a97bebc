import { PAYMENT_MESSAGES } from '#contract/payments';
import type { users } from '#server/db/schema';
import { badRequest } from '#server/errors';

/** A user as the server holds it (password hash included): never sent as is, see toPublicUser. */
export type UserRow = typeof users.$inferSelect;

/**
 * The wallet registered to the user, which every payment must come from; `claimed` is the wallet
 * a request says it pays from.
 */
export function requireWallet(user: UserRow, claimed?: string): string {
  if (!user.walletAddress) throw badRequest(PAYMENT_MESSAGES.noWallet);
  if (claimed !== undefined && claimed !== user.walletAddress)
    throw badRequest(PAYMENT_MESSAGES.notYourWallet);
  return user.walletAddress;
}
