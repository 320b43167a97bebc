import { ExternalLink } from 'lucide-react';
import { useConfig } from '#web/lib/config';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { TestSolButton, useTestSol } from './wallet-balance';

/** Devnet's public faucet: where a devnet wallet gets SOL to try the app. */
export const DEVNET_FAUCET_URL = 'https://faucet.solana.com';

const INSUFFICIENT = /^Insufficient balance/;

/**
 * A failed payment, inline under its form and wrapped (a toast cut the wallet address off on a
 * phone): headed by the spec's 'Transaction Failed', then whether anything left the wallet, with
 * what to do next when SOL is short.
 */
export function PaymentFailure({
  error,
  sent,
  walletAddress,
}: {
  error: unknown;
  /** Whether a transaction reached the chain: only then is it a failed transaction. */
  sent: boolean;
  walletAddress: string | null;
}) {
  const message = describePaymentError(error);
  const short = INSUFFICIENT.test(message);
  return (
    <div
      role="alert"
      className="grid gap-2 rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm break-words"
    >
      <p className="font-semibold">Transaction Failed</p>
      <p className="font-medium">
        {short ? 'Not enough SOL' : sent ? 'The transaction failed on chain' : 'Nothing was sent'}
      </p>
      <p className="wrap-anywhere">{message}</p>
      {short && walletAddress && <ShortOfSol walletAddress={walletAddress} />}
    </div>
  );
}

function ShortOfSol({ walletAddress }: { walletAddress: string }) {
  const { data: config } = useConfig();
  const testSol = useTestSol(walletAddress);
  if (config?.embeddedChain) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <span>Nothing was sent. Get free test SOL, then try again:</span>
        <TestSolButton testSol={testSol} label="" />
      </div>
    );
  }
  if (config?.cluster === 'devnet') {
    return (
      <p>
        Nothing was sent.{' '}
        <a
          className="inline-flex items-center gap-1 font-medium text-primary underline"
          href={DEVNET_FAUCET_URL}
          target="_blank"
          rel="noopener noreferrer"
        >
          Get devnet SOL from the faucet <ExternalLink className="size-3" aria-hidden />
        </a>{' '}
        for your wallet, then try again.
      </p>
    );
  }
  return <p>Nothing was sent. Add SOL to your wallet, then try again.</p>;
}
