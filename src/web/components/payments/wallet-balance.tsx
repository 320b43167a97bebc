import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Droplets, Wallet } from 'lucide-react';
import { lamportsToSol } from '#contract/money';
import { Button } from '#web/components/ui/button';
import { toast } from '#web/components/ui/use-toast';
import { useConfig } from '#web/lib/config';
import { balanceQueryKey, useBalance } from '#web/lib/payments/api/check-balance';
import { requestTestSol } from '#web/lib/payments/api/request-test-sol';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { shortAddress } from '#web/lib/utils';

/**
 * The chip's figure: at most 4 decimals, rounded down (never more than the wallet holds), so 'SOL'
 * fits beside it on a phone; the exact balance is in its title (issue 37, item 9).
 */
export function chipSol(lamports: bigint): string {
  return lamportsToSol(lamports - (lamports % 100_000n));
}

/** What 'Get test SOL' asks for: enough for a few dares, well under the 10 SOL per call limit. */
export const TEST_SOL_AMOUNT = '2';

/**
 * The signed-in wallet's balance on the configured cluster, exact to the lamport, and on the
 * embedded chain a 'Get test SOL' action. On a phone the top bar keeps the balance chip (a new
 * user sees what they have before a payment fails) and leaves Get test SOL to the menu.
 */
export default function WalletBalance({
  walletAddress,
  className = 'flex items-center gap-1',
  testSolLabel,
  testSolClassName,
}: {
  walletAddress: string;
  /** Classes of the 'Get test SOL' words (icon-only in the top bar below `lg`). */
  testSolLabel?: string;
  /** Classes of the whole 'Get test SOL' button (the top bar hides it on a phone). */
  testSolClassName?: string;
  className?: string;
}) {
  const { data: config } = useConfig();
  const balance = useBalance(walletAddress);
  const testSol = useTestSol(walletAddress);

  const text = balance.data !== undefined ? `${chipSol(balance.data)} SOL` : balance.isError ? '? SOL' : '…';
  return (
    <div className={className}>
      <span
        className="flex max-w-32 items-center gap-1.5 truncate rounded-md border px-2 py-1.5 text-sm tabular-nums sm:max-w-36"
        title={
          balance.isError
            ? `Balance unavailable: ${describePaymentError(balance.error)}`
            : `Balance of ${shortAddress(walletAddress)}${balance.data !== undefined ? `: ${lamportsToSol(balance.data)} SOL` : ''}`
        }
      >
        <Wallet className="size-4 shrink-0 text-primary" aria-hidden />
        <span className="sr-only">Wallet balance:</span>
        <span
          data-testid="wallet-balance"
          data-exact={balance.data !== undefined ? `${lamportsToSol(balance.data)} SOL` : undefined}
        >
          {text}
        </span>
      </span>
      {config?.embeddedChain && (
        <TestSolButton testSol={testSol} label={testSolLabel} className={testSolClassName} />
      )}
    </div>
  );
}

/** 'Get test SOL' on the embedded chain: the top bar, the phone menu, and a failed payment's next step. */
export function useTestSol(walletAddress: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => requestTestSol(walletAddress, TEST_SOL_AMOUNT),
    onSuccess: ({ balance: next }) => {
      queryClient.setQueryData(balanceQueryKey(walletAddress), next);
      toast({ title: 'Test SOL received', description: `${TEST_SOL_AMOUNT} SOL added to your wallet` });
    },
    onError: (error) =>
      toast({ title: 'Test SOL failed', description: describePaymentError(error), variant: 'destructive' }),
  });
}

export function TestSolButton({
  testSol,
  label = 'sr-only lg:not-sr-only',
  className,
}: {
  testSol: ReturnType<typeof useTestSol>;
  /** Where the words show: icon-only in a narrow top bar, spelled out elsewhere. */
  label?: string;
  className?: string;
}) {
  return (
    <Button
      className={className}
      type="button"
      variant="ghost"
      size="sm"
      disabled={testSol.isPending}
      onClick={() => testSol.mutate()}
      title={`Get ${TEST_SOL_AMOUNT} test SOL on the embedded chain`}
    >
      <Droplets aria-hidden />
      <span className={label}>{testSol.isPending ? 'Getting test SOL...' : 'Get test SOL'}</span>
    </Button>
  );
}
