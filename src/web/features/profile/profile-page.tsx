import { Link } from 'react-router';
import { ConnectPrompt } from '../../components/common/connect-prompt';
import { PageHeader } from '../../components/common/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { useAuth } from '../auth/auth-provider';
import { ConnectWalletButton } from '../auth/components/connect-wallet-button';
import { ProfileSummary } from './components/profile-summary';
import { RewardClaims } from './components/reward-claims';

/** /profile: the signed-in user's record (GET /api/profile later adds its statistics). */
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
      <ProfileSummary user={user} />
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
            <Link to="/major-dare">Major Dare</Link>
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
          {/* Spec: Recent Activity always reads 'No recent activity'. */}
          <p className="text-sm text-muted-foreground">No recent activity</p>
        </CardContent>
      </Card>
      <RewardClaims />
    </div>
  );
}
