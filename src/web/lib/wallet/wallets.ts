import type {
  SolanaSignInFeature,
  SolanaSignInInput,
  SolanaSignMessageFeature,
  SolanaSignTransactionFeature,
} from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import type {
  StandardConnectFeature,
  StandardDisconnectFeature,
  StandardEventsFeature,
} from '@wallet-standard/features';

/** A wallet the app can sign in with: Wallet Standard connect plus SIWS or message signing. */
export interface SigningWallet {
  name: string;
  icon: string;
  /** Kept in this browser, only on the embedded chain. */
  local?: boolean;
  connect(): Promise<WalletAccount>;
  disconnect(): Promise<void>;
  signIn?(
    input: SolanaSignInInput,
  ): Promise<{ account: WalletAccount; signedMessage: Uint8Array; signature: Uint8Array }>;
  signMessage(
    account: WalletAccount,
    message: Uint8Array,
  ): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }>;
  signTransaction(account: WalletAccount, transaction: Uint8Array): Promise<Uint8Array>;
  onAccountsChanged(listener: (accounts: readonly WalletAccount[]) => void): () => void;
}

type StandardWallet = Wallet & {
  features: Partial<
    StandardConnectFeature &
      StandardDisconnectFeature &
      StandardEventsFeature &
      SolanaSignInFeature &
      SolanaSignMessageFeature &
      SolanaSignTransactionFeature
  >;
};

function isUsable(wallet: Wallet): wallet is StandardWallet {
  const features = wallet.features as StandardWallet['features'];
  return (
    wallet.chains.some((chain) => chain.startsWith('solana:')) &&
    !!features['standard:connect'] &&
    (!!features['solana:signIn'] || !!features['solana:signMessage'])
  );
}

function adapt(wallet: StandardWallet): SigningWallet {
  const features = wallet.features;
  const signIn = features['solana:signIn'];
  return {
    name: wallet.name,
    icon: wallet.icon,
    async connect() {
      const { accounts } = await features['standard:connect']!.connect();
      const account = accounts[0] ?? wallet.accounts[0];
      if (!account) throw new Error('The wallet did not share an account');
      return account;
    },
    async disconnect() {
      await features['standard:disconnect']?.disconnect();
    },
    signIn: signIn
      ? async (input) => {
          const [output] = await signIn.signIn(input);
          if (!output) throw new Error('The wallet did not sign in');
          return output;
        }
      : undefined,
    async signMessage(account, message) {
      const feature = features['solana:signMessage'];
      if (!feature) throw new Error(`${wallet.name} cannot sign messages`);
      const [output] = await feature.signMessage({ account, message });
      if (!output) throw new Error('The wallet did not sign the message');
      return output;
    },
    async signTransaction(account, transaction) {
      const feature = features['solana:signTransaction'];
      if (!feature) throw new Error(`${wallet.name} cannot sign transactions`);
      const [output] = await feature.signTransaction({ account, transaction });
      if (!output) throw new Error('The wallet did not sign the transaction');
      return output.signedTransaction;
    },
    onAccountsChanged(listener) {
      const events = features['standard:events'];
      if (!events) return () => {};
      return events.on('change', (properties) => {
        if (properties.accounts) listener(properties.accounts);
      });
    },
  };
}

/** Installed Wallet Standard wallets for Solana, Phantom first (docs/product.md#connect-wallet-dialog). */
export function listWallets(): SigningWallet[] {
  const wallets = getWallets().get().filter(isUsable);
  wallets.sort((a, b) => Number(b.name === 'Phantom') - Number(a.name === 'Phantom'));
  return wallets.map(adapt);
}

export function onWalletsChanged(listener: () => void): () => void {
  const { on } = getWallets();
  const offRegister = on('register', listener);
  const offUnregister = on('unregister', listener);
  return () => {
    offRegister();
    offUnregister();
  };
}
