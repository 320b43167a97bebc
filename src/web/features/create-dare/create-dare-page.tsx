import { STAKE_MAX_SOL, STAKE_MIN_SOL } from '../../../contract/limits';
import { ConnectPrompt } from '../../components/common/connect-prompt';
import { PageHeader } from '../../components/common/page-header';
import { useAuth } from '../auth/auth-provider';
import { ConnectWalletButton } from '../auth/components/connect-wallet-button';
import { CreateDareForm } from './components/create-dare-form';

/** /create-dare: the form for a signed-in user, a connect prompt for a visitor. */
export default function CreateDarePage() {
  const { user } = useAuth();
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
      <CreateDareForm />
    </div>
  );
}
