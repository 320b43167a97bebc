import { lamportsToSol, solToLamports } from '#contract/money';
import { useConfig } from '#web/lib/config';
import { useBalance } from '#web/lib/payments/api/check-balance';
import { formatSol } from '#web/lib/utils';

/**
 * Create Dare's stake hint (issue 37, item 6): what the wallet can stake once the new vault's rent
 * and the network fee are set aside, and, before anything is signed, that the rent is lent and
 * comes back when the dare ends.
 */
export function StakeAvailable({ walletAddress }: { walletAddress: string | null }) {
  const balance = useBalance(walletAddress ?? '');
  const { data: config } = useConfig();
  if (!walletAddress) return null;
  const rentSol = config?.limits.newVaultRentSol;
  const reserved =
    rentSol === undefined ? null : solToLamports(rentSol) + solToLamports(config!.limits.networkFeeSol);
  const available =
    balance.data === undefined || reserved === null
      ? balance.isError
        ? 'unknown'
        : '…'
      : `${lamportsToSol(balance.data > reserved ? balance.data - reserved : 0n)} SOL`;
  return (
    <span className="grid gap-0.5 text-xs text-muted-foreground">
      <span className="tabular-nums" data-testid="available-balance">
        Available: {available}
      </span>
      {rentSol !== undefined && (
        <span data-testid="vault-rent">
          Creating the dare also lends {formatSol(rentSol)} of rent to its vault: it comes back to your wallet
          when the dare ends.
        </span>
      )}
    </span>
  );
}
