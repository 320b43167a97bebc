import { ADMIN_MESSAGES, type RefundSummary } from '#contract/admin';
import { formatSol } from '#web/lib/utils';

/** What a cancel or delete did with the money in the dare, for the success toast. */
export function describeRefunds(refunds: RefundSummary): string | undefined {
  const parts: string[] = [];
  if (refunds.refunded > 0)
    parts.push(
      `Refunded ${formatSol(refunds.refundedAmount)} in ${refunds.refunded} contribution${refunds.refunded === 1 ? '' : 's'}.`,
    );
  if (refunds.failed > 0)
    parts.push(ADMIN_MESSAGES.refundFailed(refunds.failureReason ?? 'the network did not confirm it'));
  return parts.length > 0 ? parts.join(' ') : undefined;
}
