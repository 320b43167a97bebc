import { ExternalLink, Wallet } from 'lucide-react';
import { useState } from 'react';
import type { PublicUser } from '#contract/users';
import { WalletChoices } from '#web/components/common/wallet-choices';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog';
import { toast } from '#web/components/ui/use-toast';
import { useConfig } from '#web/lib/config';
import { useAuth } from '#web/lib/session/auth-provider';
import { useSystemSwitches } from '#web/lib/settings';
import { disconnectWallet } from '#web/lib/wallet/connected-wallet';
import { createLocalDevWallet, loadKeyFileIntoLocalDevWallet } from '#web/lib/wallet/dev-wallet';
import { looksLikeAPhone, phantomBrowseLink } from '#web/lib/wallet/phantom-link';
import { useInstalledWallets } from '#web/lib/wallet/use-installed-wallets';
import type { SigningWallet } from '#web/lib/wallet/wallets';
import { signInWithWallet } from '../lib/sign-in';
import { PasswordLoginForm } from './password-login-form';

function welcome(user: PublicUser) {
  toast({
    title: 'Wallet Connected',
    description: `Welcome back, ${user.username}!${user.isAdmin ? ' (Admin)' : ''}`,
  });
}

/**
 * 'Connect Wallet': the browser's Solana wallets (Wallet Standard), the local dev wallet on the
 * embedded chain, and username/password login. A wallet proves ownership with Sign-In With
 * Solana; an unknown wallet goes on to the Registration dialog.
 */
export function ConnectWalletDialog() {
  const auth = useAuth();
  const wallets = useInstalledWallets();
  const { data: config } = useConfig();
  const switches = useSystemSwitches();
  const registrationOpen = switches.data?.registrationEnabled !== false;
  const [busy, setBusy] = useState<string | null>(null);

  async function connect(getWallet: () => Promise<SigningWallet> | SigningWallet, name: string) {
    setBusy(name);
    try {
      const wallet = await getWallet();
      const result = await signInWithWallet(wallet, () => {
        void auth.logout({ silent: true });
        toast({ title: 'Disconnected', description: 'You can now connect with a different wallet.' });
      });
      auth.closeConnect();
      if (result.kind === 'signed-in') {
        auth.setSession(result.user, result.token);
        welcome(result.user);
      } else {
        auth.setPendingRegistration({
          walletAddress: result.walletAddress,
          registrationToken: result.registrationToken,
        });
        // With registration off, the dialog that opens says so first: no toast promising a form.
        if (registrationOpen)
          toast({ title: 'New Wallet Detected', description: 'Please complete registration to continue.' });
      }
    } catch (error) {
      await disconnectWallet().catch(() => undefined);
      toast({
        title: 'Connection Failed',
        description: error instanceof Error && error.message ? error.message : 'Failed to connect to wallet',
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && auth.closeConnect()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Connect Wallet</DialogTitle>
          <DialogDescription>
            {auth.sessionEnded ? 'Your session has ended. Please sign in again.' : 'Choose how to sign in.'}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <WalletChoices
            wallets={wallets}
            busy={busy}
            onPick={(wallet) => void connect(() => wallet, wallet.name)}
          />
          {wallets.length === 0 && looksLikeAPhone() && (
            // A phone browser has no wallet extension: Phantom's app opens this very page in its own
            // browser, where the wallet is there.
            <Button asChild variant="outline" className="justify-start">
              <a href={phantomBrowseLink(window.location.href, window.location.origin)}>
                <ExternalLink aria-hidden />
                Open in Phantom
              </a>
            </Button>
          )}
          {wallets.length === 0 && (
            <p className="text-sm text-muted-foreground">
              No Solana wallet found in this browser.{' '}
              <a
                className="text-primary underline"
                href="https://phantom.app/download"
                target="_blank"
                rel="noopener noreferrer"
              >
                Install Phantom
              </a>{' '}
              and reload the page.
            </p>
          )}
          {config?.embeddedChain && (
            <Button
              variant="secondary"
              className="justify-start"
              disabled={busy !== null}
              onClick={() => void connect(createLocalDevWallet, 'local')}
            >
              <Wallet aria-hidden />
              {busy === 'local' ? 'Connecting...' : 'Local dev wallet (this browser only, test SOL)'}
            </Button>
          )}
          {config?.embeddedChain && (
            <KeyFileWallet
              disabled={busy !== null}
              onLoaded={() => void connect(createLocalDevWallet, 'local')}
            />
          )}
        </div>
        <PasswordLoginForm />
      </DialogContent>
    </Dialog>
  );
}

/**
 * Embedded chain only: a key file (the demo admin's `data/demo-admin-wallet.json`, or any
 * solana-keygen file) becomes the local dev wallet, so the demo admin can sign in and judge in
 * this browser with no wallet extension. The file never leaves the browser.
 */
function KeyFileWallet({ disabled, onLoaded }: { disabled: boolean; onLoaded: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <div className="space-y-1 text-sm">
      <label htmlFor="key-file-wallet" className="text-muted-foreground">
        Use a key file as the local dev wallet (the demo admin's is <code>data/demo-admin-wallet.json</code>)
      </label>
      <input
        id="key-file-wallet"
        type="file"
        accept="application/json,.json"
        disabled={disabled}
        className="block w-full text-sm"
        onChange={async (event) => {
          const file = event.currentTarget.files?.[0];
          if (!file) return;
          try {
            await loadKeyFileIntoLocalDevWallet(await file.text());
            setProblem(null);
            onLoaded();
          } catch (error) {
            setProblem((error as Error).message);
          }
        }}
      />
      {problem && (
        <p role="alert" className="text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
