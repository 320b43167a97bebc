import type { PaymentSigner } from './payment-wallet';

/**
 * Step 1 of a payment, with wallet discovery and signing code fetched on the first call: they stay
 * out of every page's first load.
 */
export function lazyConnectPaymentWallet(options: {
  embeddedChain: boolean;
}): (walletAddress: string) => Promise<PaymentSigner> {
  return async (walletAddress) =>
    (await import('./connect-payment-wallet')).connectPaymentWallet(walletAddress, options);
}

/** The judge's wallet for program v2's propose, fetched the same lazy way. */
export function lazyConnectJudgeWallet(options: {
  embeddedChain: boolean;
}): (judges: readonly string[]) => Promise<PaymentSigner> {
  return async (judges) => (await import('./connect-payment-wallet')).connectJudgeWallet(judges, options);
}
