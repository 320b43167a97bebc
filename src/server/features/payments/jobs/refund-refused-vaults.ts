import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { bookPayment } from '#server/features/payments/crediting/book-payment';
import type { PaymentIntentRow } from '#server/features/payments/intents/intent';
import { closeReservation } from '#server/features/payments/repo/escrow-wallets';
import {
  markVaultRefundsDone,
  takeVaultIntentsForRefund,
} from '#server/features/payments/repo/payment-intents';

/**
 * What payments needs of the refunds feature, declared here and wired in routes.ts (refunds
 * depends on payments, never the other way round).
 */
export interface RefusedVaults {
  /**
   * Cancels the vault on chain at once (the moderator's `cancel`, if it is still open) and refunds
   * every receipt in it to its payer, booking each refund. Resolves once every receipt is refunded;
   * safe to call again for the same vault (what is done stays done).
   */
  cancelAndRefund(vault: string): Promise<void>;
}

export interface RefuseVaultDeps {
  db: Db;
  clock: Clock;
  refusedVaults: RefusedVaults;
}

/**
 * A vault that landed but will never fund a dare (decision 021: its deadline passed while the
 * wallet signed, its terms do not match the dare, dare creation was switched off, or nobody came
 * back for it): the payment that landed is booked (a ledger line, if the server had not seen it),
 * every paid payment of the vault is taken for a refund (a credit can no longer take it), the
 * reservation is closed, and the refunds feature cancels the vault and refunds each receipt now.
 * `landed` is the payment that triggered it, with its signature. Resolves to why the refund could
 * not be done yet (the payments job asks again), or null.
 */
export async function refuseVault(
  deps: RefuseVaultDeps,
  vault: string,
  landed?: { intent: PaymentIntentRow; signature: string },
): Promise<string | null> {
  await takeRefusedVault(deps, vault, landed);
  return refundVault(deps, vault);
}

/** refuseVault's bookkeeping, without asking for the refund. */
export async function takeRefusedVault(
  { db, clock }: Pick<RefuseVaultDeps, 'db' | 'clock'>,
  vault: string,
  landed?: { intent: PaymentIntentRow; signature: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (landed) await bookPayment(tx, landed.intent, landed.signature, clock());
    await takeVaultIntentsForRefund(tx, vault, clock());
    await closeReservation(tx, vault, clock());
  });
}

/**
 * Hands the vault to the refunds feature; once every receipt is refunded, the vault's payments
 * taken for it are marked refunded. A failure (the network, say) leaves them owed, and the
 * payments job asks again: resolves to its reason, or null when done.
 */
export async function refundVault(deps: RefuseVaultDeps, vault: string): Promise<string | null> {
  try {
    await deps.refusedVaults.cancelAndRefund(vault);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  await markVaultRefundsDone(deps.db, vault, deps.clock());
  return null;
}
