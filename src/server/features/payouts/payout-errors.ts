import { describeTransactionError } from '../../chain/transfers';

/**
 * A payout's failure in words for the winner and the admin. The generic wording speaks of "your
 * wallet", which is wrong here: the platform's wallets pay, so name the one that fell short.
 */
export function describePayoutError(error: unknown): string {
  const text =
    JSON.stringify(error, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)) ?? '';
  const all = `${(error as Error)?.message ?? ''} ${text} ${String((error as { cause?: unknown })?.cause ?? '')}`;
  // The fee payer is the first account: an empty one does not exist (AccountNotFound).
  if (
    /InsufficientFundsForFee|insufficient funds for fee|AccountNotFound|no record of a prior credit/i.test(
      all,
    )
  )
    return 'The platform fee wallet cannot pay the network fee right now';
  if (/InsufficientFundsForRent|insufficient funds for rent/i.test(all))
    return 'The transfer would leave the escrow or the receiving wallet below the rent-exempt minimum (0.00089088 SOL)';
  const generic = describeTransactionError(error);
  if (generic.startsWith('Insufficient funds'))
    return 'The escrow does not hold enough SOL for this transfer';
  return generic;
}
