import { escrowErrorMessage } from '#server/chain/escrow-program/errors';

export const INSUFFICIENT_FUNDS =
  'Insufficient funds: your wallet does not hold enough SOL for this amount plus the network fee';

/** Every message and serialisable field along an error's `cause` chain, as one text. */
function textOf(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    parts.push((current as Error).message ?? '');
    parts.push(
      JSON.stringify(current, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)) ?? '',
    );
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}

/** The Custom(n) code of the failed instruction, in any of the forms kit and the node write it. */
function customCode(text: string): number | null {
  const match =
    /"Custom":(\d+)/.exec(text) ??
    /custom program error: #(\d+)/i.exec(text) ??
    /custom program error: 0x([0-9a-f]+)/i.exec(text);
  if (!match) return null;
  return match[0].includes('0x') ? Number.parseInt(match[1]!, 16) : Number(match[1]);
}

/**
 * A failed payment transaction (preflight, or landed with an error) as a sentence a user
 * understands. The instructions are the escrow program's: its Custom codes are its own errors,
 * except Custom(1), which is the System program refusing the payer's transfer inside it (the
 * server never builds an unknown escrow instruction).
 */
export function describeTransactionError(error: unknown): string {
  const text = textOf(error);
  if (/InsufficientFundsForRent|insufficient funds for rent/i.test(text))
    return 'The payment would leave your wallet below the rent-exempt minimum (0.00089088 SOL)';
  if (/insufficient lamports|InsufficientFundsForFee|insufficient funds/i.test(text))
    return INSUFFICIENT_FUNDS;
  const code = customCode(text);
  if (code === 1) return INSUFFICIENT_FUNDS;
  if (code !== null) return escrowErrorMessage(code);
  if (/BlockhashNotFound|blockhash not found/i.test(text))
    return 'The transaction expired before it was sent. Please try again.';
  if (/AlreadyProcessed|already been processed/i.test(text)) return 'This transaction was already sent';
  if (/SignatureFailure|signature verification|missing signature/i.test(text))
    return 'The transaction is not correctly signed by your wallet';
  return 'The network rejected the transaction';
}
