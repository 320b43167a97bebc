import { Link } from 'react-router';
import { normalizeSol } from '../../../contract/money';
import { ConnectPrompt, EmptyState, PageHeader, StatTile } from '../../components/common/page';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { useAuth } from '../auth/auth-provider';
import { ConnectWalletButton } from '../auth/components/connect-wallet-button';

export default function ProfilePage() {
  const { user } = useAuth();
  if (!user) {
    return (
      <div>
        <PageHeader title="Profile" />
        <ConnectPrompt
          text="Please connect your wallet to view your profile"
          action={<ConnectWalletButton />}
        />
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <PageHeader title="Profile" />
      <Card>
        <CardContent className="flex flex-wrap items-center gap-4 pt-5">
          <div
            aria-hidden
            className="flex size-16 items-center justify-center rounded-full bg-primary text-2xl font-bold text-primary-foreground"
          >
            {user.username.charAt(0).toUpperCase()}
          </div>
          <div className="min-w-0">
            <p className="text-xl font-semibold">{user.username}</p>
            <p className="break-all font-mono text-xs text-muted-foreground">
              {user.walletAddress ?? 'No wallet'}
            </p>
          </div>
        </CardContent>
      </Card>
      <div className="grid gap-3 sm:grid-cols-3">
        <StatTile label="Reputation" value={user.reputation} />
        <StatTile label="Wins" value={user.dareWins} />
        <StatTile label="Total Earnings" value={`${normalizeSol(user.totalEarnings)} SOL`} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Quick Actions</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button asChild>
            <Link to="/create-dare">Create Dare</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/community-dares">Browse Dares</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/leaderboard">Leaderboard</Link>
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Recent Activity</CardTitle>
        </CardHeader>
        <CardContent>
          <EmptyState
            title="No activity yet"
            description="Your submissions, votes, contributions and claims show here."
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Reward Claims</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          <div>
            <h3 className="mb-2 font-medium">Winning Submissions</h3>
            <EmptyState title="No winning submissions yet" />
          </div>
          <div>
            <h3 className="mb-2 font-medium">Claims History</h3>
            <EmptyState title="No claims yet" />
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
