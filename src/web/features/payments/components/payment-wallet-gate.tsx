import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useConfig } from '../../../lib/config';
import { describePaymentError } from '../lib/payment-errors';

const readyKey = (walletAddress: string) => ['payment-wallet-ready', walletAddress] as const;

/**
 * Shows `children` (a money form) only once this browser can pay from the account's wallet. A
 * password user whose wallet is not connected learns it here, with 'Connect wallet' naming the
 * address, instead of at step 1 after filling in the whole form.
 */
export function PaymentWalletGate({
  walletAddress,
  action,
  children,
}: {
  walletAddress: string | null;
  /** What the wallet is for, ending the sentence 'Connect it to ...': 'create a dare'. */
  action: string;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const { data: config } = useConfig();
  const [connecting, setConnecting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = useQuery({
    queryKey: readyKey(walletAddress ?? ''),
    enabled: walletAddress !== null && config !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () =>
      (await import('../lib/connect-payment-wallet')).canPaySilently(walletAddress!, {
        embeddedChain: config!.embeddedChain,
      }),
  });

  if (walletAddress === null) {
    return (
      <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
        Your account has no wallet address, so it cannot {action}.
      </p>
    );
  }
  if (ready.data === true) return children;
  if (ready.data === undefined) return <Spinner label="Checking your wallet" />;

  async function connect() {
    setConnecting(true);
    setFailure(null);
    try {
      const { connectPaymentWallet } = await import('../lib/connect-payment-wallet');
      await connectPaymentWallet(walletAddress!, { embeddedChain: config?.embeddedChain ?? false });
      queryClient.setQueryData(readyKey(walletAddress!), true);
    } catch (error) {
      setFailure(describePaymentError(error));
    } finally {
      setConnecting(false);
    }
  }

  return (
    <section
      aria-label="Connect your wallet"
      className="grid gap-3 rounded-md border border-primary/40 bg-primary/5 p-4 text-sm"
    >
      <p>
        Your account pays from its own wallet,{' '}
        <span className="font-mono break-all" data-testid="expected-wallet">
          {walletAddress}
        </span>
        , which is not connected in this browser. Connect it to {action}.
      </p>
      {failure && (
        <p role="alert" className="break-words text-destructive">
          {failure}
        </p>
      )}
      <div>
        <Button type="button" disabled={connecting} onClick={() => void connect()}>
          <Wallet aria-hidden />
          {connecting ? 'Connecting...' : 'Connect wallet'}
        </Button>
      </div>
    </section>
  );
}
