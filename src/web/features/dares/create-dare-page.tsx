import { Ban } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  CREATE_DARE_FORM_DEFAULTS,
  type CreateDareForm as CreateDareFormValues,
  DARE_MESSAGES,
} from '#contract/dares';
import { STAKE_MAX_SOL, STAKE_MIN_SOL } from '#contract/limits';
import { ConnectPrompt } from '#web/components/common/connect-prompt';
import { ConnectWalletButton } from '#web/components/common/connect-wallet-button';
import { EmptyState } from '#web/components/common/empty-state';
import { PageHeader } from '#web/components/common/page-header';
import { EscrowFundingProgress } from '#web/components/payments/escrow-funding-progress';
import { PaidStakeNotice } from '#web/components/payments/paid-stake-notice';
import { PaymentFailure } from '#web/components/payments/payment-failure';
import { PaymentWalletGate } from '#web/components/payments/payment-wallet-gate';
import { TransactionLink } from '#web/components/payments/transaction-link';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/use-toast';
import { useAuth } from '#web/lib/session/auth-provider';
import { useSystemSwitches } from '#web/lib/settings';
import { CreateDareForm } from './components/create-dare-form';
import { StakeAvailable } from './components/stake-available';
import { useCreateDare } from './hooks/use-create-dare';
import {
  type CreateDareField,
  type CreateDareFormErrors,
  validateCreateDareForm,
} from './lib/validate-create-dare-form';

/**
 * /create-dare: the form for a signed-in user, a connect prompt for a visitor; with dare creation
 * switched off (System Controls), neither: the page says so before anyone connects or types.
 */
export default function CreateDarePage() {
  const { user } = useAuth();
  const switches = useSystemSwitches();
  // Unknown yet: wait rather than show a form that may vanish. Unreadable: the server still refuses.
  if (switches.isPending) {
    return (
      <div>
        <PageHeader title="Create Dare" />
        <Spinner label="Loading" />
      </div>
    );
  }
  if (switches.data?.dareCreationEnabled === false) {
    return (
      <div>
        <PageHeader title="Create Dare" />
        <EmptyState
          icon={Ban}
          title={DARE_MESSAGES.creationDisabled}
          description="An admin has paused new dares for now. You can still join the open ones."
          action={
            <Button asChild variant="outline">
              <Link to="/community-dares">Browse Community Dares</Link>
            </Button>
          }
        />
      </div>
    );
  }
  if (!user) {
    return (
      <div>
        <PageHeader title="Create Dare" />
        <ConnectPrompt
          text="Connect your wallet to stake SOL on a new dare."
          action={<ConnectWalletButton />}
        />
      </div>
    );
  }
  return (
    <div className="max-w-2xl">
      <PageHeader
        title="Create Dare"
        description={`Stake between ${STAKE_MIN_SOL} and ${STAKE_MAX_SOL} SOL into an escrow for your dare.`}
      />
      <PaymentWalletGate walletAddress={user.walletAddress} action="create a dare">
        <CreateDareSection walletAddress={user.walletAddress} />
      </PaymentWalletGate>
    </div>
  );
}

function CreateDareSection({ walletAddress }: { walletAddress: string | null }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<CreateDareFormValues>(CREATE_DARE_FORM_DEFAULTS);
  const [errors, setErrors] = useState<CreateDareFormErrors>({});
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const { steps, isPending, paid, submit } = useCreateDare();

  function change<F extends CreateDareField>(field: F, value: CreateDareFormValues[F]) {
    setValues((current) => ({ ...current, [field]: value }));
    // docs/product.md#create-dare-form-rules (as for registration): a field's error clears when the user edits it.
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function create() {
    const checked = validateCreateDareForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setFailure(null);
    const outcome = await submit(checked.value, walletAddress);
    if (!outcome.ok) {
      // Inline under the progress list, not a toast: it stays, wraps, and says what to do next.
      setFailure({ error: outcome.error });
      return;
    }
    toast({
      title: 'Dare Created!',
      description: <TransactionLink signature={outcome.signature} explorerUrl={outcome.explorerUrl} />,
    });
    // Decision 017: the new dare's own page is the success screen (Share, pool, the stake's link).
    navigate(`/dare/${outcome.dare.id}`);
  }

  const sent = steps?.send === 'done' || steps?.send === 'failed';
  return (
    <CreateDareForm
      values={values}
      errors={errors}
      onChange={change}
      onSubmit={() => void create()}
      isPending={isPending}
      stakeHint={<StakeAvailable walletAddress={walletAddress} />}
    >
      {steps && <EscrowFundingProgress steps={steps} />}
      {failure && !isPending && (
        <PaymentFailure error={failure.error} sent={sent} walletAddress={walletAddress} />
      )}
      {paid && !isPending && <PaidStakeNotice paid={paid} what="stake" button="Create Dare" />}
    </CreateDareForm>
  );
}
