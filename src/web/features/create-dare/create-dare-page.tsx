import {
  CATEGORIES,
  CREATE_DARE_DEFAULTS,
  DIFFICULTIES,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
} from '../../../contract/limits';
import { ConnectPrompt, PageHeader } from '../../components/common/page';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { Input, Textarea } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { useAuth } from '../auth/auth-provider';
import { ConnectWalletButton } from '../auth/components/connect-wallet-button';

const selectClass = 'flex h-10 w-full rounded-md border border-input bg-background px-3 text-sm capitalize';

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
      <Card>
        <CardContent className="pt-5">
          {/* The staking flow (balance check, escrow, signing) arrives with the money issue. */}
          <form className="grid gap-4" aria-label="Create dare" onSubmit={(event) => event.preventDefault()}>
            <div className="grid gap-1.5">
              <Label htmlFor="title">Title</Label>
              <Input id="title" name="title" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="description">Description</Label>
              <Textarea id="description" name="description" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="stakeAmount">Stake Amount (SOL)</Label>
              <Input id="stakeAmount" name="stakeAmount" type="number" step="0.01" min={STAKE_MIN_SOL} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-1.5">
                <Label htmlFor="difficulty">Difficulty</Label>
                <select
                  id="difficulty"
                  name="difficulty"
                  className={selectClass}
                  defaultValue={CREATE_DARE_DEFAULTS.difficulty}
                >
                  {DIFFICULTIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="category">Category</Label>
                <select
                  id="category"
                  name="category"
                  className={selectClass}
                  defaultValue={CREATE_DARE_DEFAULTS.category}
                >
                  {CATEGORIES.map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="deadline">Deadline</Label>
              <Input id="deadline" name="deadline" type="datetime-local" />
            </div>
            <Button type="submit" disabled>
              Create Dare
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
