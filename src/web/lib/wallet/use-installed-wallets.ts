import { useEffect, useState } from 'react';
import { listWallets, onWalletsChanged, type SigningWallet } from './wallets';

/** The browser's Solana wallets (Wallet Standard), kept current as extensions register late. */
export function useInstalledWallets(): SigningWallet[] {
  const [wallets, setWallets] = useState(listWallets);
  useEffect(() => onWalletsChanged(() => setWallets(listWallets())), []);
  return wallets;
}
