import { useCallback } from 'react';
import { useEscrowFunding } from '#web/lib/payments/use-escrow-funding';
import { createDare } from '../api/create-dare';
import { runCreateDare } from '../lib/create-dare-flow';
import type { ValidCreateDareForm } from '../lib/validate-create-dare-form';

/** The create-dare flow for the signed-in user, with its steps and any stake already paid. */
export function useCreateDare() {
  const { steps, isPending, paid, run } = useEscrowFunding();
  const submit = useCallback(
    (form: ValidCreateDareForm, walletAddress: string | null) =>
      run(
        walletAddress,
        ({ cluster, vaultRentSol, networkFeeSol, paid: alreadyPaid, deps, events, walletAddress: wallet }) =>
          runCreateDare(
            { form, walletAddress: wallet, cluster, vaultRentSol, networkFeeSol, paid: alreadyPaid },
            { ...deps, createDare },
            events,
          ),
      ),
    [run],
  );
  return { steps, isPending, paid, submit };
}
