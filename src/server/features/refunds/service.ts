/**
 * Refunds: every payer of a dare's vault back what they put in, through the escrow program. The
 * parts, each a module of named functions taking the feature's shared state (`Refunds`,
 * refunds-deps.ts: one run per vault at a time) first: refund-vault.ts (one vault's run, and a
 * refused vault cancelled and refunded), refund-dare.ts (a dare's refunds and their summary),
 * finish-vaults.ts and refund-due.ts (the periodic job). This module only puts them together
 * under the names callers use.
 */
import type { PayingServiceDeps } from '#server/features/payouts/service';
import { refundDare } from './refund-dare';
import { refundDue } from './refund-due';
import { cancelAndRefund } from './refund-vault';
import { refundsOf } from './refunds-deps';

export type { FinishedVaultsRun } from './finish-vaults';

export function createRefundsService(deps: PayingServiceDeps) {
  const refunds = refundsOf(deps);
  return {
    /** Every payer of a dare's vault back what they put in, each receipt exactly once. */
    refundDare: (dareId: number) => refundDare(refunds, dareId),
    /** payments' RefusedVaults: a vault that will never fund a dare, cancelled and refunded. */
    cancelAndRefund: (escrowWallet: string) => cancelAndRefund(refunds, escrowWallet),
    /** The periodic job (refund-due.ts). */
    refundDue: () => refundDue(refunds),
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
