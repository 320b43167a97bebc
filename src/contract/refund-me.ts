import { z } from 'zod';
import { lamportsSchema } from './payments';
import { signedTransactionSchema } from './transactions';

/**
 * 'Refund me' (docs/decisions/025-entering-and-refund-me.md): on a refunding or overdue dare, a payer takes their SOL back
 * from the dare's vault with their own wallet. The program decides whether a refund is due; no
 * DarePool key signs the transaction.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * '4 Dec 2026, 02:29 UTC': a message the server writes once is read in every time zone and
 * locale, so it names the instant in UTC, spelled out, never as a raw ISO string.
 */
export function formatUtcInstant(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

export const REFUND_ME_MESSAGES = {
  button: 'Refund me',
  noWallet: 'Your account has no wallet: refunds go back to the wallet that paid',
  invalidWallet: 'wallet must be a Solana address (base58)',
  noVault: "This dare's vault is closed: nothing is left to refund",
  paidOut: 'This dare was paid out: nothing to refund',
  notDue: (when: Date) => `Refunds of this dare open on ${formatUtcInstant(when)}`,
  nothingToRefund: 'Your wallet has nothing to refund in this dare',
  unreadable: 'The signed refund could not be read',
  notPrepared: 'This refund was not prepared by DarePool for your account; ask for a new one',
  notAsPrepared: 'This is not the refund DarePool prepared for you; sign the prepared transaction unchanged',
  badSignature: 'The refund is not correctly signed by your wallet',
  expired: 'Your refund expired before it reached the chain; please sign a new one',
  failed: (reason: string) => `Your refund failed on chain: ${reason}`,
  unconfirmed: 'The network did not confirm your refund in time; check your wallet in a moment',
  noFee: 'Your wallet cannot pay the network fee (0.000005 SOL): add SOL to it first',
  success: 'Refunded',
} as const;

/**
 * GET /api/dares/{id}/refund-status: whether the caller's wallet can take a refund from the
 * dare's vault now (its receipt exists, and the vault is refunding, or open past refund_after),
 * and how much; else why not.
 */
export const refundStatusSchema = z
  .object({
    refundable: z.boolean(),
    /** The caller's receipt in the vault, lamports; null without one. */
    amount: lamportsSchema.nullable(),
    /** Why no refund can be taken now (REFUND_ME_MESSAGES), or null when it can. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'RefundStatus' });
export type RefundStatus = z.infer<typeof refundStatusSchema>;

/**
 * POST /api/dares/{id}/refund-transaction: the `refund` of the caller's receipt, fee payer the
 * caller's wallet, signed by nobody yet. Asked again while it can land, the same one comes back.
 */
export const refundTransactionResponseSchema = z
  .object({
    transaction: z.string(),
    /** What the refund returns to the wallet, lamports. */
    amount: lamportsSchema,
    lastValidBlockHeight: z.string(),
  })
  .meta({ id: 'RefundTransactionResponse' });
export type RefundTransactionResponse = z.infer<typeof refundTransactionResponseSchema>;

export const refundRequestSchema = z
  .object({ signedTransaction: signedTransactionSchema(REFUND_ME_MESSAGES.unreadable) })
  .meta({ id: 'RefundRequest' });
export type RefundRequest = z.infer<typeof refundRequestSchema>;

/** POST /api/dares/{id}/refund: the relayed refund, confirmed. */
export const refundResponseSchema = z
  .object({ signature: z.string(), amount: lamportsSchema })
  .meta({ id: 'RefundResponse' });
export type RefundResponse = z.infer<typeof refundResponseSchema>;
