import { FEE_PAYER_MESSAGES } from '#contract/fee-payer';
import { escrowErrorMessage } from '#server/chain/escrow-program/errors';

function textOf(error: unknown): string {
  // kit wraps the node's error: the readable part is often in `cause`, the logs in `context`.
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    parts.push((current as Error).message ?? String(current));
    parts.push(
      JSON.stringify(current, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)) ?? '',
    );
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}

/**
 * A payout's or refund's failure in words for the winner and the admin. The platform's keys sign
 * and pay these transactions, so an empty wallet is the platform's fee payer, said in DarePool's
 * words (FEE_PAYER_MESSAGES.low), never as the user's wallet being short; a refusal of the
 * escrow program says which of its rules stopped it.
 */
export function describePayoutError(error: unknown): string {
  const all = textOf(error);
  // The fee payer is the first account: an empty one does not exist (AccountNotFound).
  if (
    /InsufficientFundsForFee|insufficient funds for fee|AccountNotFound|no record of a prior credit/i.test(
      all,
    )
  )
    return FEE_PAYER_MESSAGES.low;
  const custom = /"Custom":\s*"?(\d+)|custom program error: 0x([0-9a-f]+)/i.exec(all);
  if (custom)
    return `The escrow program refused it: ${escrowErrorMessage(custom[1] ? Number(custom[1]) : Number.parseInt(custom[2]!, 16))}`;
  if (/InsufficientFundsForRent|insufficient funds for rent/i.test(all)) return FEE_PAYER_MESSAGES.low;
  if (/BlockhashNotFound|blockhash not found/i.test(all))
    return 'The transaction expired before it was sent. Please try again.';
  if (/AlreadyProcessed|already been processed/i.test(all)) return 'This transaction was already sent';
  return 'The network rejected the transaction';
}
