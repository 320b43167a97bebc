import type { PublicUser } from '#contract/users';
import { ApiError } from '#web/lib/api-client';
import { disconnectWallet, rememberConnectedWallet } from '#web/lib/wallet/connected-wallet';
import type { SigningWallet } from '#web/lib/wallet/wallets';
import { createChallenge } from '../api/create-challenge';
import { walletLogin } from '../api/wallet-login';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export type WalletSignInResult =
  | { kind: 'signed-in'; user: PublicUser; token: string }
  | { kind: 'unregistered'; walletAddress: string; registrationToken: string };

/**
 * docs/product.md#sign-in-states: disconnect any previous wallet session, connect, then prove ownership with
 * Sign-In With Solana (`solana:signIn`, or the same text through `solana:signMessage`).
 */
export async function signInWithWallet(
  wallet: SigningWallet,
  onDisconnected: () => void,
): Promise<WalletSignInResult> {
  await disconnectWallet().catch((error) => console.info('Previous wallet did not disconnect', error));
  const account = await wallet.connect();
  const { input, message } = await createChallenge(account.address);
  const proof = wallet.signIn
    ? await wallet.signIn(input)
    : await wallet.signMessage(account, new TextEncoder().encode(message));
  const stopListening = wallet.onAccountsChanged((accounts) => {
    if (!accounts.some((other) => other.address === account.address)) onDisconnected();
  });
  rememberConnectedWallet(wallet, account, stopListening);
  try {
    const session = await walletLogin({
      walletAddress: account.address,
      signedMessage: toBase64(proof.signedMessage),
      signature: toBase64(proof.signature),
    });
    return { kind: 'signed-in', ...session };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'WALLET_NOT_REGISTERED') {
      const { registrationToken } = JSON.parse(error.body) as { registrationToken: string };
      return { kind: 'unregistered', walletAddress: account.address, registrationToken };
    }
    throw error;
  }
}
