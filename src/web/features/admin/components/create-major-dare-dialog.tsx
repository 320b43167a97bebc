import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import {
  MAJOR_DARE_FORM_DEFAULTS,
  MAJOR_DARE_MESSAGES,
  type MajorDareForm as MajorDareFormValues,
} from '#contract/major-dare';
import { AvailableBalance } from '#web/components/payments/available-balance';
import { EscrowFundingProgress } from '#web/components/payments/escrow-funding-progress';
import { PaidStakeNotice } from '#web/components/payments/paid-stake-notice';
import { PaymentFailure } from '#web/components/payments/payment-failure';
import { TransactionLink } from '#web/components/payments/transaction-link';
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
import { useEscrowFunding } from '#web/lib/payments/use-escrow-funding';
import { createMajorDare } from '../api/create-major-dare';
import {
  type MajorDareField,
  type MajorDareFormErrors,
  runCreateMajorDare,
  validateMajorDareForm,
} from '../lib/create-major-dare';
import { MajorDareForm } from './major-dare-form';

/**
 * The Major Dares tab's create dialog. The prize comes from the admin's own wallet: it is staked
 * into the new dare's escrow through the same seven steps as any dare, so the server records only
 * a prize it has verified on chain.
 */
export function CreateMajorDareDialog({ walletAddress }: { walletAddress: string | null }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<MajorDareFormValues>(MAJOR_DARE_FORM_DEFAULTS);
  const [errors, setErrors] = useState<MajorDareFormErrors>({});
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const { steps, isPending, paid, run } = useEscrowFunding();
  const queryClient = useQueryClient();

  const change = useCallback(<F extends MajorDareField>(field: F, value: MajorDareFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }, []);

  async function create() {
    const checked = validateMajorDareForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setFailure(null);
    const outcome = await run(
      walletAddress,
      ({ cluster, vaultRentSol, networkFeeSol, paid: alreadyPaid, deps, events, walletAddress: wallet }) =>
        runCreateMajorDare(
          {
            form: checked.value,
            walletAddress: wallet,
            cluster,
            vaultRentSol,
            networkFeeSol,
            paid: alreadyPaid,
          },
          { ...deps, createMajorDare },
          events,
        ),
    );
    if (!outcome.ok) {
      // Inline under the progress list, wrapped, with the next step (decision 017).
      setFailure({ error: outcome.error });
      return;
    }
    // The admin lists, stats and the public major dare all show the new dare.
    void queryClient.invalidateQueries();
    toast({
      title: MAJOR_DARE_MESSAGES.created,
      description: <TransactionLink signature={outcome.signature} explorerUrl={outcome.explorerUrl} />,
    });
    setValues(MAJOR_DARE_FORM_DEFAULTS);
    setErrors({});
    setOpen(false);
  }

  return (
    // Kept open while a payment runs: closing must not hide a transfer the wallet is signing.
    <Dialog open={open} onOpenChange={(next) => (isPending ? undefined : setOpen(next))}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> Create Major Dare
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create Major Dare</DialogTitle>
          <DialogDescription>
            The prize is paid from your wallet into the major dare's escrow: 70% goes to your pick, 30% to the
            community's most voted submission.
          </DialogDescription>
        </DialogHeader>
        <MajorDareForm
          values={values}
          errors={errors}
          onChange={change}
          onSubmit={() => void create()}
          isPending={isPending}
          prizeHint={<AvailableBalance walletAddress={walletAddress} />}
        >
          {steps && <EscrowFundingProgress steps={steps} />}
          {failure && !isPending && (
            <PaymentFailure
              error={failure.error}
              sent={steps?.send === 'done' || steps?.send === 'failed'}
              walletAddress={walletAddress}
            />
          )}
          {paid && !isPending && <PaidStakeNotice paid={paid} what="prize" button="Create Major Dare" />}
        </MajorDareForm>
      </DialogContent>
    </Dialog>
  );
}
