import type { WalletAccount } from '@wallet-standard/base';
import type { SigningWallet } from './wallets';

/** The wallet this tab signed in with; money flows sign with it later. */
let connected: { wallet: SigningWallet; account: WalletAccount; stopListening: () => void } | null = null;

export function connectedWallet() {
  return connected;
}

/** After a sign-in: the wallet, its account, and how to stop watching its account changes. */
export function rememberConnectedWallet(
  wallet: SigningWallet,
  account: WalletAccount,
  stopListening: () => void,
) {
  connected = { wallet, account, stopListening };
}

export async function disconnectWallet(): Promise<void> {
  const current = connected;
  connected = null;
  if (!current) return;
  current.stopListening();
  await current.wallet.disconnect();
}
