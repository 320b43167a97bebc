import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Dare } from '../../../../contract/dares';
import { PAYMENT_MESSAGES } from '../../../../contract/payments';
import { configQueryOptions } from '../../../lib/config';
import { checkBalance } from '../../payments/api/check-balance';
import { createEscrowWallet } from '../../payments/api/create-escrow-wallet';
import { createTransaction } from '../../payments/api/create-transaction';
import { sendTransaction } from '../../payments/api/send-transaction';
import { PaymentError } from '../../payments/lib/payment-errors';
import { refreshAfterPayment } from '../../payments/lib/refresh-after-payment';
import { createDare } from '../api/create-dare';
import { type PaidStake, runCreateDare } from '../lib/create-dare-flow';
import { type CreateDareStepId, initialStepStatuses, type StepStatus, type StepStatuses } from '../lib/steps';
import type { ValidCreateDareForm } from '../lib/validate-form';

export type CreateDareOutcome =
  | { ok: true; dare: Dare; signature: string; explorerUrl: string }
  | { ok: false; error: unknown };

/**
 * Runs the create-dare flow for the signed-in user and keeps what the page shows about it: each
 * step's state, whether it is running, the stake already paid if only the record step failed.
 * Refreshes the payer's balance, the dare lists and the stats once SOL has moved.
 */
export function useCreateDare() {
  const queryClient = useQueryClient();
  const [steps, setSteps] = useState<StepStatuses | null>(null);
  const [isPending, setPending] = useState(false);
  const [paid, setPaid] = useState<PaidStake | null>(null);
  // The latest paid stake without waiting for a render: a fast second submit must see it.
  const paidRef = useRef<PaidStake | null>(null);

  const submit = useCallback(
    async (form: ValidCreateDareForm, walletAddress: string | null): Promise<CreateDareOutcome> => {
      setPending(true);
      setSteps(initialStepStatuses());
      const onStep = (id: CreateDareStepId, status: StepStatus) =>
        setSteps((current) => ({ ...(current ?? initialStepStatuses()), [id]: status }));
      let moved = false;
      try {
        // Checked before step 1: a password account without a wallet cannot stake.
        if (!walletAddress) throw new PaymentError(PAYMENT_MESSAGES.noWallet);
        const config = await queryClient.ensureQueryData(configQueryOptions());
        const result = await runCreateDare(
          { form, walletAddress, cluster: config.cluster, paid: paidRef.current },
          {
            // Wallet discovery and signing load with the first payment, not with the page.
            connectWallet: async (address) =>
              (await import('../../payments/lib/connect-payment-wallet')).connectPaymentWallet(address, {
                embeddedChain: config.embeddedChain,
              }),
            checkBalance,
            createEscrowWallet,
            createTransaction,
            sendTransaction,
            createDare,
          },
          {
            onStep,
            onPaid: (stake) => {
              moved = true;
              paidRef.current = stake;
              setPaid(stake);
            },
          },
        );
        moved = true;
        paidRef.current = null;
        setPaid(null);
        return { ok: true, ...result, explorerUrl: config.explorerUrl };
      } catch (error) {
        return { ok: false, error };
      } finally {
        setPending(false);
        if (moved && walletAddress) void refreshAfterPayment(queryClient, walletAddress);
      }
    },
    [queryClient],
  );

  return { steps, isPending, paid, submit };
}
