import { lazy, Suspense } from 'react';
import { useAuth } from '#web/lib/session/auth-provider';

// Loaded after the first paint and only for a signed-in wallet: Home's first load stays as it was.
const WalletBalance = lazy(() => import('./wallet-balance'));

/** The top bar's place for the signed-in wallet's balance (and test SOL on the embedded chain). */
export function WalletBalanceSlot({
  className,
  testSolLabel,
  testSolClassName,
}: {
  className?: string;
  testSolLabel?: string;
  testSolClassName?: string;
}) {
  const { user } = useAuth();
  if (!user?.walletAddress) return null;
  return (
    <Suspense fallback={null}>
      <WalletBalance
        walletAddress={user.walletAddress}
        className={className}
        testSolLabel={testSolLabel}
        testSolClassName={testSolClassName}
      />
    </Suspense>
  );
}
