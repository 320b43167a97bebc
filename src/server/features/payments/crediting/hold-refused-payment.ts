import type { DbOrTx } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { REFUSED_PAYMENT_HOLD_MS } from '#server/features/payments/intents/intent';
import { shortenHold } from '#server/features/payments/repo/payment-intents';

/**
 * Runs step 7 (a dare, a contribution, a major dare). When it is refused, money the server holds
 * for this user under that signature is refunded after REFUSED_PAYMENT_HOLD_MS instead of at the
 * end of the intent's 24 h: long enough to correct the form and send again, no longer.
 */
export async function holdRefusedPayment<T>(
  deps: { db: DbOrTx; clock: Clock },
  user: UserRow,
  signature: string,
  step7: () => Promise<T>,
): Promise<T> {
  try {
    return await step7();
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      const until = new Date(deps.clock().getTime() + REFUSED_PAYMENT_HOLD_MS);
      await shortenHold(deps.db, user.id, signature, until);
    }
    throw error;
  }
}
