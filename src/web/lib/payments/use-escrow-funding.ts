import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { Cluster } from '#contract/network';
import { PAYMENT_MESSAGES } from '#contract/payments';
import { configQueryOptions } from '#web/lib/config';
import { checkBalance } from './api/check-balance';
import { createEscrowWallet } from './api/create-escrow-wallet';
import { createTransaction } from './api/create-transaction';
import { sendTransaction } from './api/send-transaction';
import type { EscrowFundingDeps, EscrowFundingEvents, PaidStake } from './escrow-funding-flow';
import {
  type CreateDareStepId,
  initialStepStatuses,
  type StepStatus,
  type StepStatuses,
} from './escrow-funding-steps';
import { lazyConnectPaymentWallet } from './lazy-payment-wallet';
import { PaymentError } from './payment-errors';
import { refreshAfterPayment } from './refresh-after-payment';

/** What a flow needs from the hook: the cluster, the real payment calls, the step reporting. */
export interface EscrowFundingContext {
  walletAddress: string;
  cluster: Cluster;
  /** What a new vault lends from the creator's wallet besides the stake (/api/config). */
  vaultRentSol: string;
  /** The network fee now, priority fee included (/api/config's networkFeeSol). */
  networkFeeSol: string;
  paid: PaidStake | null;
  deps: EscrowFundingDeps;
  events: EscrowFundingEvents;
}

export type EscrowFundingOutcome<T> = ({ ok: true; explorerUrl: string } & T) | { ok: false; error: unknown };

/**
 * Runs a stake-into-a-fresh-escrow flow (create dare, create major dare) for the signed-in user
 * and keeps what the page shows about it: each step's state, whether it runs, the stake already
 * paid if only the record step failed. Refreshes the payer's balance, the dare lists and the stats
 * once SOL has moved.
 */
export function useEscrowFunding() {
  const queryClient = useQueryClient();
  const [steps, setSteps] = useState<StepStatuses | null>(null);
  const [isPending, setPending] = useState(false);
  const [paid, setPaid] = useState<PaidStake | null>(null);
  // The latest paid stake without waiting for a render: a fast second submit must see it.
  const paidRef = useRef<PaidStake | null>(null);

  const run = useCallback(
    async <T extends object>(
      walletAddress: string | null,
      flow: (context: EscrowFundingContext) => Promise<T>,
    ): Promise<EscrowFundingOutcome<T>> => {
      setPending(true);
      setSteps(initialStepStatuses());
      const onStep = (id: CreateDareStepId, status: StepStatus) =>
        setSteps((current) => ({ ...(current ?? initialStepStatuses()), [id]: status }));
      let moved = false;
      try {
        // Checked before step 1: a password account without a wallet cannot stake.
        if (!walletAddress) throw new PaymentError(PAYMENT_MESSAGES.noWallet);
        const config = await queryClient.ensureQueryData(configQueryOptions());
        const result = await flow({
          walletAddress,
          cluster: config.cluster,
          vaultRentSol: config.limits.newVaultRentSol,
          networkFeeSol: config.limits.networkFeeSol,
          paid: paidRef.current,
          deps: {
            connectWallet: lazyConnectPaymentWallet({ embeddedChain: config.embeddedChain }),
            checkBalance,
            createEscrowWallet,
            createTransaction,
            sendTransaction,
          },
          events: {
            onStep,
            onPaid: (stake) => {
              moved = true;
              paidRef.current = stake;
              setPaid(stake);
            },
          },
        });
        moved = true;
        paidRef.current = null;
        setPaid(null);
        return { ok: true, explorerUrl: config.explorerUrl, ...result };
      } catch (error) {
        return { ok: false, error };
      } finally {
        setPending(false);
        if (moved && walletAddress) void refreshAfterPayment(queryClient, walletAddress);
      }
    },
    [queryClient],
  );

  return { steps, isPending, paid, run };
}
