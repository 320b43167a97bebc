import { Button } from '#web/components/ui/button';
import type { SigningWallet } from '#web/lib/wallet/wallets';

/**
 * One button per installed wallet, as Connect Wallet and Refund me by wallet list them: the one
 * being connected says so, and all are off while one is.
 */
export function WalletChoices({
  wallets,
  busy,
  onPick,
}: {
  wallets: SigningWallet[];
  /** The name of the wallet being connected, or any non-null value while something else is. */
  busy: string | null;
  onPick: (wallet: SigningWallet) => void;
}) {
  return wallets.map((wallet) => (
    <Button
      key={wallet.name}
      variant="outline"
      className="justify-start"
      disabled={busy !== null}
      onClick={() => onPick(wallet)}
    >
      <img src={wallet.icon} alt="" className="size-5" />
      {busy === wallet.name ? 'Connecting...' : wallet.name}
    </Button>
  ));
}
