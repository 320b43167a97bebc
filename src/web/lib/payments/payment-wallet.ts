import type { WalletAccount } from '@wallet-standard/base';
import { JUDGING_MESSAGES } from '#contract/judging';
import { shortAddress } from '#web/lib/utils';
import type { SigningWallet } from '#web/lib/wallet/wallets';
import { PaymentError } from './payment-errors';

/** The wallet that pays: it must hold the account's own address, the only one the server accepts. */
export interface PaymentSigner {
  address: string;
  walletName: string;
  /** Wire transaction bytes in, the same transaction with this wallet's signature out. */
  signTransaction(transaction: Uint8Array): Promise<Uint8Array>;
}

export interface PaymentWalletSources {
  /** The wallet this tab signed in with, if any (forgotten on a page load). */
  current: { wallet: SigningWallet; account: WalletAccount } | null;
  /** Installed Wallet Standard wallets, in the order to try them. */
  installed: SigningWallet[];
  /** The local dev wallet, offered only on the embedded chain. */
  local?: () => Promise<SigningWallet>;
}

/** docs/product.md#wallet-rules: no wallet extension at all. */
export class WalletNotFoundError extends PaymentError {
  override name = 'WalletNotFoundError';
}

const asSigner = (wallet: SigningWallet, account: WalletAccount): PaymentSigner => ({
  address: account.address,
  walletName: wallet.name,
  signTransaction: (transaction) => wallet.signTransaction(account, transaction),
});

/**
 * Create Dare step 1, 'Connect the wallet': finds the wallet holding the account's address. The
 * wallet signed in with in this tab is used as is; otherwise each wallet is connected in turn (a
 * site it already trusts connects without a prompt) until one shares the address. A wallet on
 * another account is not used: the server refuses a transfer from anyone but the account's wallet.
 */
export async function resolvePaymentWallet(
  walletAddress: string,
  sources: PaymentWalletSources,
): Promise<PaymentSigner> {
  if (sources.current?.account.address === walletAddress) {
    return asSigner(sources.current.wallet, sources.current.account);
  }
  if (sources.installed.length === 0 && !sources.local) {
    throw new WalletNotFoundError('Phantom wallet not found. Please install Phantom wallet extension.');
  }
  const elsewhere: string[] = [];
  for (const wallet of sources.installed) {
    const account = await wallet.connect();
    if (account.address === walletAddress) return asSigner(wallet, account);
    elsewhere.push(`${wallet.name} is on ${shortAddress(account.address)}`);
  }
  // Tried last: it never prompts, and it only matters to an account registered with it.
  if (sources.local) {
    const wallet = await sources.local();
    const account = await wallet.connect();
    if (account.address === walletAddress) return asSigner(wallet, account);
  }
  throw new PaymentError(
    `Connect the wallet of your account (${shortAddress(walletAddress)}) to pay` +
      (elsewhere.length > 0 ? `: ${elsewhere.join(', ')}.` : '.'),
  );
}

/**
 * The wallet that names a winner on program v2: one of the dare's judges, whatever account the
 * admin signed in with (a judge is an admin's own wallet, issue 24). The same order as a payment:
 * this tab's wallet, installed wallets, then the local dev wallet on the embedded chain. None
 * holding a judge's address is said before anything is signed (JUDGING_MESSAGES.noJudgeWallet).
 */
export async function resolveJudgeWallet(
  judges: readonly string[],
  sources: PaymentWalletSources,
): Promise<PaymentSigner> {
  const isJudge = (address: string) => judges.includes(address);
  if (sources.current && isJudge(sources.current.account.address)) {
    return asSigner(sources.current.wallet, sources.current.account);
  }
  for (const wallet of sources.installed) {
    const account = await wallet.connect();
    if (isJudge(account.address)) return asSigner(wallet, account);
  }
  if (sources.local) {
    const wallet = await sources.local();
    const account = await wallet.connect();
    if (isJudge(account.address)) return asSigner(wallet, account);
  }
  throw new PaymentError(JUDGING_MESSAGES.noJudgeWallet);
}
