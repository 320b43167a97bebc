import { useQuery } from '@tanstack/react-query';
import type { WalletAccount } from '@wallet-standard/base';
import { Undo2, Wallet } from 'lucide-react';
import { useState } from 'react';
import { type DarePhase, endedWithoutWinner } from '#contract/dare-status';
import { REFUND_ME_MESSAGES } from '#contract/refund-me';
import { WalletChoices } from '#web/components/common/wallet-choices';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { toast } from '#web/components/ui/use-toast';
import { useConfig } from '#web/lib/config';
import { PaymentError } from '#web/lib/payments/payment-errors';
import type { PaymentSigner } from '#web/lib/payments/payment-wallet';
import { useAuth } from '#web/lib/session/auth-provider';
import { shortAddress } from '#web/lib/utils';
import { createLocalDevWallet, hasLocalDevWallet } from '#web/lib/wallet/dev-wallet';
import { useInstalledWallets } from '#web/lib/wallet/use-installed-wallets';
import type { SigningWallet } from '#web/lib/wallet/wallets';
import {
  requestWalletRefundTransaction,
  sendWalletRefund,
  walletRefundStatusQueryOptions,
} from '../api/refund-by-wallet';
import { RefundAction, refundedWords } from './refund-action';

interface ConnectedWallet {
  wallet: SigningWallet;
  account: WalletAccount;
}

/**
 * 'Refund me' for a wallet with no DarePool account, or not this session's (a blink backer,
 * decision 066): the visitor connects the wallet, with no sign-in, and sees whether it has SOL
 * to take back on this dare; the wallet alone signs its refund, which goes back to it only. The
 * same words, amounts and toasts as the signed-in 'Refund me'; shown on the same dares.
 */
export function RefundByWallet({ dare }: { dare: { id: number; phase: DarePhase } }) {
  const { user } = useAuth();
  const [connected, setConnected] = useState<ConnectedWallet | null>(null);
  const [refunded, setRefunded] = useState<string | null>(null);
  const ended = endedWithoutWinner(dare.phase);
  const walletAddress = connected?.account.address ?? null;
  const status = useQuery({
    ...walletRefundStatusQueryOptions(dare.id, walletAddress ?? ''),
    enabled: ended && walletAddress !== null,
  });
  if (!ended) return null;
  if (!connected || !walletAddress) {
    return (
      <ConnectRefundWallet
        // A signed-in payer's own wallet has its 'Refund me' already; this one is for any other.
        label={user?.walletAddress ? 'Refund another wallet' : REFUND_ME_MESSAGES.button}
        onConnected={setConnected}
      />
    );
  }

  const signer: PaymentSigner = {
    address: walletAddress,
    walletName: connected.wallet.name,
    signTransaction: (transaction) => connected.wallet.signTransaction(connected.account, transaction),
  };
  return (
    <>
      <p className="self-center text-sm text-muted-foreground">
        {connected.wallet.name}: {shortAddress(walletAddress)}
      </p>
      {refunded ? (
        <p role="status" className="self-center text-sm">
          Refunded: {refunded}
        </p>
      ) : (
        <RefundAction
          dareId={dare.id}
          walletAddress={walletAddress}
          status={status.data}
          sayNothing
          calls={{
            requestTransaction: (dareId) => requestWalletRefundTransaction(dareId, walletAddress),
            send: (dareId, signed) => sendWalletRefund(dareId, walletAddress, signed),
          }}
          connectWallet={() => async (address) => {
            // The transaction names its payer: only the wallet connected for it can sign it.
            if (address !== walletAddress) throw new PaymentError('Connect the wallet to refund again');
            return signer;
          }}
          onRefunded={(result) => setRefunded(refundedWords(result))}
        />
      )}
    </>
  );
}

/**
 * The wallet to ask about: the browser's Solana wallets (Wallet Standard) and, on the embedded
 * chain, this browser's local dev wallet if it has one. Connecting shares an address; nothing is
 * signed until the refund itself.
 */
function ConnectRefundWallet({
  label,
  onConnected,
}: {
  label: string;
  onConnected(connected: ConnectedWallet): void;
}) {
  const wallets = useInstalledWallets();
  const { data: config } = useConfig();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const local = config?.embeddedChain && hasLocalDevWallet();

  async function connect(getWallet: () => Promise<SigningWallet> | SigningWallet, name: string) {
    setBusy(name);
    try {
      const wallet = await getWallet();
      const account = await wallet.connect();
      setOpen(false);
      onConnected({ wallet, account });
    } catch (error) {
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
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Undo2 aria-hidden />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Refund me by wallet</DialogTitle>
          <DialogDescription>
            Connect the wallet that put SOL in this dare to see what it can take back. No sign-in: the wallet
            signs its own refund, and the SOL goes back to it only.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <WalletChoices
            wallets={wallets}
            busy={busy}
            onPick={(wallet) => void connect(() => wallet, wallet.name)}
          />
          {local && (
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
          {wallets.length === 0 && !local && (
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
        </div>
      </DialogContent>
    </Dialog>
  );
}
