import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { Dare } from '#contract/dares';
import { POOL_ADD_DEFAULT_SOL, POOL_ADD_MIN_SOL } from '#contract/limits';
import { networkLabel } from '#contract/network';
import { PAYMENT_MESSAGES, receiptRentLabel } from '#contract/payments';
import { AvailableBalance } from '#web/components/payments/available-balance';
import { PaymentFailure } from '#web/components/payments/payment-failure';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { Button } from '#web/components/ui/button';
import { DialogClose, DialogFooter } from '#web/components/ui/dialog';
import { Input } from '#web/components/ui/input';
import { FieldError, Label } from '#web/components/ui/label';
import { toast } from '#web/components/ui/use-toast';
import { configQueryOptions, useConfig } from '#web/lib/config';
import { dareQueryKey } from '#web/lib/dare';
import { checkBalance } from '#web/lib/payments/api/check-balance';
import { createTransaction } from '#web/lib/payments/api/create-transaction';
import { sendTransaction } from '#web/lib/payments/api/send-transaction';
import { lazyConnectPaymentWallet } from '#web/lib/payments/lazy-payment-wallet';
import { refreshAfterPayment } from '#web/lib/payments/refresh-after-payment';
import { useAuth } from '#web/lib/session/auth-provider';
import { addToPool } from '../api/add-to-pool';
import { type PaidContribution, runAddToPool } from '../lib/add-to-pool-flow';
import { checkPoolAmount } from '../lib/pool-amount';

/**
 * The Add to Pool form: validates the amount, pays through the wallet, and writes the dare the
 * server answers into the cache, so the pool on the page changes without a reload.
 */
export default function AddToPoolForm({
  dare,
  paid,
  onPaidChange,
  onBusyChange,
  onDone,
}: {
  dare: Dare;
  /** Kept by the dialog, so closing and reopening it does not forget a transfer already made. */
  paid: PaidContribution | null;
  onPaidChange: (paid: PaidContribution | null) => void;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
}) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const id = useId();
  const [amount, setAmount] = useState<string>(POOL_ADD_DEFAULT_SOL);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; sent: boolean } | null>(null);
  const receiptRentSol = useConfig().data?.limits.receiptRentSol;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkPoolAmount(amount);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    const walletAddress = user?.walletAddress ?? null;
    setFailure(null);
    setPending(true);
    onBusyChange(true);
    let moved = false;
    try {
      const config = await queryClient.ensureQueryData(configQueryOptions());
      const { dare: updated, signature } = await runAddToPool(
        {
          dare,
          amount: checked.amount,
          walletAddress,
          network: networkLabel(config.cluster),
          receiptRentSol: config.limits.receiptRentSol,
          networkFeeSol: config.limits.networkFeeSol,
          paid,
        },
        {
          checkBalance,
          connectWallet: lazyConnectPaymentWallet({ embeddedChain: config.embeddedChain }),
          createTransaction,
          sendTransaction,
          addToPool,
        },
        (contribution) => {
          moved = true;
          onPaidChange(contribution);
        },
      );
      onPaidChange(null);
      queryClient.setQueryData(dareQueryKey(dare.id), updated);
      toast({
        title: 'Successfully added to pool!',
        description: (
          <span className="grid gap-1">
            <span>{checked.amount} SOL added to dare pool</span>
            <TransactionLink signature={signature} explorerUrl={config.explorerUrl} />
          </span>
        ),
      });
      setAmount(POOL_ADD_DEFAULT_SOL);
      onBusyChange(false);
      onDone();
    } catch (caught) {
      // Inline in the dialog, wrapped, with the next step: a toast cut the message off on a phone.
      setFailure({ error: caught, sent: moved });
      onBusyChange(false);
    } finally {
      setPending(false);
      if (moved && walletAddress) {
        void refreshAfterPayment(queryClient, walletAddress, { keep: dareQueryKey(dare.id) });
      }
    }
  }

  const inputId = `${id}-amount`;
  const errorId = `${id}-amount-error`;
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate aria-label="Add to pool">
      <div className="grid gap-1.5">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <Label htmlFor={inputId}>Amount (SOL)</Label>
          <AvailableBalance walletAddress={user?.walletAddress ?? null} />
        </div>
        <Input
          id={inputId}
          type="number"
          inputMode="decimal"
          step="0.01"
          min={POOL_ADD_MIN_SOL}
          value={amount}
          disabled={pending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setAmount(event.target.value);
            setError(undefined);
          }}
        />
        <FieldError id={errorId} message={error} />
      </div>
      {/* Said before the wallet is asked, as Submit Video says the entry's cost: the backer's own
          wallet lends its receipt's rent (decision 058). */}
      {receiptRentSol && (
        <p className="text-sm text-muted-foreground">
          {PAYMENT_MESSAGES.receiptRent(receiptRentLabel(receiptRentSol))}
        </p>
      )}
      {paid && !pending && (
        <p role="status" className="text-sm text-muted-foreground">
          Your {paid.amount} SOL already reached the escrow; submitting again only records it.
        </p>
      )}
      {failure && !pending && (
        <PaymentFailure
          error={failure.error}
          sent={failure.sent}
          walletAddress={user?.walletAddress ?? null}
        />
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding...' : 'Add to Pool'}
        </Button>
      </DialogFooter>
    </form>
  );
}
