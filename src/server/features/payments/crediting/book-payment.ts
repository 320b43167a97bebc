import { solToLamports } from '#contract/money';
import type { DbOrTx } from '#server/db/client';
import type { PaymentIntentRow } from '#server/features/payments/intents/intent';
import { addToEscrowBalance } from '#server/features/payments/repo/escrow-wallets';
import { findIntent, markIntentPaid } from '#server/features/payments/repo/payment-intents';
import { appendLedgerEntry } from '#server/ledger/repo';

export type BookingResult = 'booked' | 'already-booked' | 'paid-by-another';

/**
 * Books a confirmed transfer that paid an intent, the moment the server first sees it (the relay,
 * step 7, or the job's look-up of a lapsed intent): one ledger line of the kind it was paid as,
 * and the escrow's balance. Until a dare, a contribution or a prize takes it, it is money held for
 * its payer, refunded when the intent lapses. Idempotent for the same signature.
 */
export async function bookPayment(
  db: DbOrTx,
  intent: PaymentIntentRow,
  signature: string,
  now: Date,
): Promise<BookingResult> {
  if (!(await markIntentPaid(db, intent.id, signature, now))) {
    const current = await findIntent(db, intent.id);
    return current?.signature === signature ? 'already-booked' : 'paid-by-another';
  }
  const lamports = solToLamports(intent.amount);
  await addToEscrowBalance(db, intent.escrowWallet, lamports, now);
  await appendLedgerEntry(db, {
    kind: intent.purpose === 'stake' ? 'stake' : 'contribution',
    escrowWallet: intent.escrowWallet,
    counterparty: intent.fromWallet,
    direction: 1,
    lamports,
    signature,
    dareId: intent.dareId,
    userId: intent.userId,
    now,
  });
  return 'booked';
}
