import { lamportsToSol } from '#contract/money';
import { useBalance } from '#web/lib/payments/api/check-balance';

/** 'Available: 1.5 SOL' beside an amount field, so nobody types more than the wallet holds. */
export function AvailableBalance({ walletAddress, id }: { walletAddress: string | null; id?: string }) {
  const balance = useBalance(walletAddress ?? '');
  if (!walletAddress) return null;
  const text =
    balance.data !== undefined ? `${lamportsToSol(balance.data)} SOL` : balance.isError ? 'unknown' : '…';
  return (
    <span id={id} className="text-xs text-muted-foreground tabular-nums" data-testid="available-balance">
      Available: {text}
    </span>
  );
}
