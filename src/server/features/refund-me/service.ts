/**
 * 'Refund me' (docs/decisions/025-entering-and-refund-me.md): a payer of a refunding or overdue dare takes their receipt back
 * from the dare's vault with their own wallet. The server builds the `refund` (the payer's wallet
 * is the fee payer; no DarePool key signs), relays exactly that message for that user, and has the
 * refund booked. The program alone decides whether a refund is due and where it goes.
 *
 * The parts, each a module of named functions taking the feature's shared state (`RefundMe`,
 * refund-me-deps.ts) first: payer.ts (whose refund), refundable.ts (whether it is due now),
 * refund-transaction.ts (the refund to sign), relay-refund.ts (the signed one relayed and booked).
 * This module only puts them together under the names callers use.
 */
import type { UserRow } from '#server/features/auth/user';
import { userPayer, walletPayer } from './payer';
import { type RefundMeDeps, refundMeOf } from './refund-me-deps';
import { refundTransaction } from './refund-transaction';
import { refundStatus } from './refundable';
import { relayRefund } from './relay-refund';

export type { RefundBooking, RefundMeDeps } from './refund-me-deps';

export function createRefundMeService(deps: RefundMeDeps) {
  const refundMe = refundMeOf(deps);
  return {
    status: (user: UserRow, dareId: number) => refundStatus(refundMe, userPayer(user), dareId),
    /** POST /api/dares/{id}/refund-transaction: the caller's `refund`, for their wallet to sign and pay. */
    transaction: (user: UserRow, dareId: number) => refundTransaction(refundMe, userPayer(user), dareId),
    /**
     * POST /api/dares/{id}/refund: relays the caller's signed refund (only the one prepared for
     * them, signed by their wallet; the server adds nothing), waits for it, then books it.
     */
    refund: (user: UserRow, dareId: number, signedTransaction: string) =>
      relayRefund(refundMe, userPayer(user), dareId, signedTransaction),

    /** The same three for a wallet with no account, named in the path (no sign-in). */
    walletStatus: (wallet: string, ip: string, dareId: number) =>
      refundStatus(refundMe, walletPayer(wallet, ip), dareId),
    walletTransaction: (wallet: string, ip: string, dareId: number) =>
      refundTransaction(refundMe, walletPayer(wallet, ip), dareId),
    walletRefund: (wallet: string, ip: string, dareId: number, signedTransaction: string) =>
      relayRefund(refundMe, walletPayer(wallet, ip), dareId, signedTransaction),
  };
}

export type RefundMeService = ReturnType<typeof createRefundMeService>;
