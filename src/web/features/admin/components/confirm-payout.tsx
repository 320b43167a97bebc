import type { ReactNode } from 'react';
import { splitMajorPrize } from '#contract/major-dare';
import { lamportsToSol, solToLamports } from '#contract/money';
import { useDare } from '#web/lib/dare';
import { formatSol } from '#web/lib/utils';
import { ConfirmDialog } from './confirm-dialog';

export type PayoutKind = 'dare' | 'admin' | 'community';

/** What a winner is paid: the whole pool of a community dare, or a major dare's 70 / 30 share. */
export function payoutLamports(kind: PayoutKind, totalPool: string): bigint {
  const pool = solToLamports(totalPool);
  if (kind === 'dare') return pool;
  return splitMajorPrize(pool)[kind];
}

const CLOSES: Record<PayoutKind, string> = {
  dare: 'and close this dare',
  admin: "as the admin's winner (70%)",
  community: 'as the community winner (30%)',
};

/**
 * A winner button that pays: it asks first, naming the amount (the dare's pool as the server
 * reads it, split as the server splits it) and the recipient, like Deactivate and Delete do.
 */
export function ConfirmPayout({
  trigger,
  dareId,
  kind,
  username,
  onConfirm,
}: {
  trigger: ReactNode;
  dareId: number;
  kind: PayoutKind;
  username: string;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      trigger={trigger}
      title={<PayoutQuestion dareId={dareId} kind={kind} username={username} />}
      description="The payout goes from the dare's escrow to the winner's wallet and cannot be undone."
      confirmLabel="Pay winner"
      onConfirm={onConfirm}
    />
  );
}

/** Rendered only while the dialog is open, so the dare is read when it is asked about. */
function PayoutQuestion({ dareId, kind, username }: { dareId: number; kind: PayoutKind; username: string }) {
  const dare = useDare(dareId);
  const amount = dare.data ? formatSol(lamportsToSol(payoutLamports(kind, dare.data.totalPool))) : '…';
  return (
    <>
      Pay {amount} to {username} {CLOSES[kind]}?
    </>
  );
}
