import { getWallets } from '@wallet-standard/app';
import type { StandardConnectFeature } from '@wallet-standard/features';
import { connectedWallet } from '#web/lib/wallet/connected-wallet';
import { createLocalDevWallet, hasLocalDevWallet } from '#web/lib/wallet/dev-wallet';
import { listWallets, type SigningWallet } from '#web/lib/wallet/wallets';
import { type PaymentSigner, resolveJudgeWallet, resolvePaymentWallet } from './payment-wallet';

/** Wallets already showing one of the addresses go first, so the right one is asked before any other. */
function byHoldingAddress(wallets: SigningWallet[], addresses: readonly string[]): SigningWallet[] {
  const holders = new Set(
    getWallets()
      .get()
      .filter((wallet) => wallet.accounts.some((account) => addresses.includes(account.address)))
      .map((wallet) => wallet.name),
  );
  return [...wallets].sort((a, b) => Number(holders.has(b.name)) - Number(holders.has(a.name)));
}

/**
 * The browser half of step 1: this tab's signed-in wallet, the installed Wallet Standard wallets,
 * and on the embedded chain the local dev wallet. Loaded only when a payment starts, so wallet
 * discovery and @solana/kit stay out of every page's first load.
 */
export function connectPaymentWallet(
  walletAddress: string,
  options: { embeddedChain: boolean },
): Promise<PaymentSigner> {
  const current = connectedWallet();
  return resolvePaymentWallet(walletAddress, {
    current: current && { wallet: current.wallet, account: current.account },
    installed: byHoldingAddress(listWallets(), [walletAddress]),
    local: options.embeddedChain ? createLocalDevWallet : undefined,
  });
}

/** The browser half of finding a judge's wallet (program v2's Mark Winner / Select Winners). */
export function connectJudgeWallet(
  judges: readonly string[],
  options: { embeddedChain: boolean },
): Promise<PaymentSigner> {
  const current = connectedWallet();
  return resolveJudgeWallet(judges, {
    current: current && { wallet: current.wallet, account: current.account },
    installed: byHoldingAddress(listWallets(), judges),
    local: options.embeddedChain ? createLocalDevWallet : undefined,
  });
}

/**
 * Whether this browser can pay from `walletAddress` without asking anyone: this tab's wallet, a
 * wallet that already shows the address or connects silently (a site it trusts), or on the
 * embedded chain a local dev wallet already kept here. Never prompts and never creates a wallet,
 * so a form can say "connect your wallet" before the user fills it in.
 */
export async function canPaySilently(
  walletAddress: string,
  options: { embeddedChain: boolean },
): Promise<boolean> {
  if (connectedWallet()?.account.address === walletAddress) return true;
  for (const wallet of getWallets().get()) {
    if (wallet.accounts.some((account) => account.address === walletAddress)) return true;
    const connect = (wallet.features as Partial<StandardConnectFeature>)['standard:connect'];
    if (!connect) continue;
    const answer = await connect.connect({ silent: true }).catch(() => null);
    if (answer?.accounts.some((account) => account.address === walletAddress)) return true;
  }
  if (options.embeddedChain && hasLocalDevWallet()) {
    const local = await createLocalDevWallet();
    if ((await local.connect()).address === walletAddress) return true;
  }
  return false;
}
