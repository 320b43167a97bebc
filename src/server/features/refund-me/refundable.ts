/** Whether a payer can take their receipt back from a dare's vault now, as the program would judge it. */
import { type Address, address } from '@solana/kit';
import { JUDGING_MESSAGES } from '#contract/judging';
import { REFUND_ME_MESSAGES, type RefundStatus } from '#contract/refund-me';
import { fetchReceipt, fetchVault } from '#server/chain/escrow-program/accounts';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { findReceiptAddress } from '#server/chain/escrow-program/pda';
import { notFound } from '#server/errors';
import { RATE_LIMITS } from '#server/rate-limits';
import { limitPayer, type Payer } from './payer';
import type { RefundMe } from './refund-me-deps';
import { findDareVault } from './repo';

type Assessment =
  | { refundable: true; amount: bigint; reason: null }
  | { refundable: false; amount: bigint | null; reason: string };

/** The dare's vault (null when it has none); 404 for no dare. */
export async function dareVault({ db }: RefundMe, dareId: number): Promise<Address | null> {
  const dare = await findDareVault(db, dareId);
  if (!dare) throw notFound('Dare not found');
  return dare.escrowWallet ? address(dare.escrowWallet) : null;
}

/**
 * Whether `wallet` can be refunded from `vault` now, as the program would judge it: the vault
 * is refunding, or open past its refund_after (by the chain's clock, or the app's when an idle
 * chain has not moved its own yet), and the wallet has a receipt.
 */
export async function assessRefund(
  { chain: { rpc }, clock, programs }: RefundMe,
  vault: Address | null,
  wallet: Address,
): Promise<Assessment> {
  const found = vault && (await fetchVault(rpc, programs, vault));
  if (!vault || !found) return { refundable: false, amount: null, reason: REFUND_ME_MESSAGES.noVault };
  const at = (await findReceiptAddress(found.programId, vault, wallet)).address;
  const receipt = await fetchReceipt(rpc, found.programId, at);
  const amount = receipt?.amount ?? null;
  if (found.status === 'settled') return { refundable: false, amount, reason: REFUND_ME_MESSAGES.paidOut };
  // A winner is named: the program refuses refunds unless the guardian vetoes it.
  if (found.status === 'proposed')
    return { refundable: false, amount, reason: JUDGING_MESSAGES.proposalStanding };
  if (found.status === 'open') {
    const chainNow = await fetchChainTime(rpc);
    const appNow = BigInt(Math.floor(clock().getTime() / 1000));
    if ((chainNow > appNow ? chainNow : appNow) < found.refundAfter) {
      const when = new Date(Number(found.refundAfter) * 1000);
      return { refundable: false, amount, reason: REFUND_ME_MESSAGES.notDue(when) };
    }
  }
  if (amount === null) return { refundable: false, amount, reason: REFUND_ME_MESSAGES.nothingToRefund };
  return { refundable: true, amount, reason: null };
}

/** GET .../refund-status: whether the payer can take their refund now, how much, or why not. */
export async function refundStatus(refundMe: RefundMe, payer: Payer, dareId: number): Promise<RefundStatus> {
  await limitPayer(refundMe, 'refund-status', payer, RATE_LIMITS.transactionLookups);
  const assessed = await assessRefund(refundMe, await dareVault(refundMe, dareId), payer.wallet);
  return {
    refundable: assessed.refundable,
    amount: assessed.amount === null ? null : assessed.amount.toString(),
    reason: assessed.reason,
  };
}
