import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { useConfig } from '#web/lib/config';
import { describePaymentError } from '#web/lib/payments/payment-errors';

const readyKey = (walletAddress: string) => ['payment-wallet-ready', walletAddress] as const;

/**
 * Shows `children` (a money form, Submit Video, Claim Prize) only once this browser holds the
 * account's wallet. A password user whose wallet is not connected learns it here, with 'Connect
 * wallet' naming the address, instead of at step 1 after filling in the whole form.
 */
export function PaymentWalletGate({
  walletAddress,
  action,
  intro = 'Your account pays from its own wallet',
  whileLocked,
  children,
}: {
  walletAddress: string | null;
  /** What the wallet is for, ending the sentence 'Connect it to ...': 'create a dare'. */
  action: string;
  /** The sentence's start, before the address: why this action needs the wallet. */
  intro?: string;
  /** Shown under the question until the wallet is connected (a list whose actions wait for it). */
  whileLocked?: ReactNode;
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
      (await import('#web/lib/payments/connect-payment-wallet')).canPaySilently(walletAddress!, {
        embeddedChain: config!.embeddedChain,
      }),
  });

  const locked = (notice: ReactNode) =>
    whileLocked === undefined ? (
      notice
    ) : (
      <div className="grid gap-3">
        {notice}
        {whileLocked}
      </div>
    );
  if (walletAddress === null) {
    return locked(
      <p role="alert" className="rounded-md border border-destructive/50 p-3 text-sm">
        Your account has no wallet address, so it cannot {action}.
      </p>,
    );
  }
  if (ready.data === true) return children;
  if (ready.data === undefined) return locked(<Spinner label="Checking your wallet" />);

  async function connect() {
    setConnecting(true);
    setFailure(null);
    try {
      const { connectPaymentWallet } = await import('#web/lib/payments/connect-payment-wallet');
      await connectPaymentWallet(walletAddress!, { embeddedChain: config?.embeddedChain ?? false });
      queryClient.setQueryData(readyKey(walletAddress!), true);
    } catch (error) {
      setFailure(describePaymentError(error));
    } finally {
      setConnecting(false);
    }
  }

  return locked(
    <section
      aria-label="Connect your wallet"
      className="grid gap-3 rounded-md border border-primary/40 bg-primary/5 p-4 text-sm"
    >
      <p>
        {intro},{' '}
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
    </section>,
  );
}
