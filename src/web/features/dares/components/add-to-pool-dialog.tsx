import { Coins } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { Dare } from '#contract/dares';
import { PaymentWalletGate } from '#web/components/payments/payment-wallet-gate';
import { Button } from '#web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useAuth } from '#web/lib/session/auth-provider';
import type { PaidContribution } from '../lib/add-to-pool-flow';

// The form carries the payment flow (zod, wallet discovery on submit): fetched when the dialog opens.
const AddToPoolForm = lazy(() => import('./add-to-pool-form'));

/** The Add to Pool dialog (docs/product.md#dare-details): a SOL amount, min 0.01, default 0.01. */
export function AddToPoolDialog({
  dare,
  disabled,
  disabledReason,
}: {
  dare: Dare;
  disabled?: boolean;
  /** Why it is off, said as text beside it (issue 26: a phone shows no tooltip). */
  disabledReason?: string;
}) {
  const { user, openConnect } = useAuth();
  const [open, setOpen] = useState(false);
  // Kept while a payment runs: closing the dialog must not hide a transfer the wallet is signing.
  const [busy, setBusy] = useState(false);
  // A transfer that landed but was not credited (e.g. the connection dropped): retried as is.
  const [paid, setPaid] = useState<PaidContribution | null>(null);
  const form = (
    <Suspense fallback={<Spinner label="Loading" className="p-4" />}>
      <AddToPoolForm
        dare={dare}
        paid={paid}
        onPaidChange={setPaid}
        onBusyChange={setBusy}
        onDone={() => setOpen(false)}
      />
    </Suspense>
  );
  // A visitor is asked for the wallet first, as Submit Video asks (issue 37, item 11): no form that
  // can only fail, no balance check without a wallet.
  const dialog = !user ? (
    <Button variant="secondary" disabled={disabled} onClick={openConnect}>
      <Coins aria-hidden />
      Add to Pool
    </Button>
  ) : (
    <Dialog open={open} onOpenChange={(next) => (busy ? undefined : setOpen(next))}>
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabled}>
          <Coins aria-hidden />
          Add to Pool
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add to Pool</DialogTitle>
          <DialogDescription>
            Add SOL to the pool of "{dare.title}". It goes straight to the dare's vault on the escrow program.
          </DialogDescription>
        </DialogHeader>
        <PaymentWalletGate walletAddress={user.walletAddress} action="add to this pool">
          {form}
        </PaymentWalletGate>
      </DialogContent>
    </Dialog>
  );
  if (!disabled || !disabledReason) return dialog;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      {dialog}
      <span className="text-xs text-muted-foreground">{disabledReason}</span>
    </span>
  );
}
