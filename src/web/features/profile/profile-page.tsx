import { Link } from 'react-router';
import type { PublicUser } from '../../../contract/users';
import { ConnectPrompt } from '../../components/common/connect-prompt';
import { PageHeader } from '../../components/common/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { useAuth } from '../auth/auth-provider';
import { ConnectWalletButton } from '../auth/components/connect-wallet-button';
import { useClaimPrize, useClaims, useProfile, useWinningSubmissions } from './api/profile';
import { ClaimsHistory } from './components/claims-history';
import { ProfileSummary } from './components/profile-summary';
import { RecentActivity } from './components/recent-activity';
import { RewardClaims } from './components/reward-claims';
import { WinningSubmissions } from './components/winning-submissions';

/** /profile: the signed-in user's record, activity and prizes. */
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
  return <SignedInProfile user={user} />;
}

function SignedInProfile({ user }: { user: PublicUser }) {
  const profile = useProfile(user.id);
  const claims = useClaims(user.id);
  const winning = useWinningSubmissions(user.id);
  const claim = useClaimPrize(user.id, user.walletAddress);
  return (
    <div className="space-y-6">
      <PageHeader title="Profile" />
      {/* The server's record is fresher than the one stored at sign-in (wins, earnings after a claim). */}
      <ProfileSummary user={profile.data?.user ?? user} />
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
          <RecentActivity items={profile.data?.recentActivity} />
        </CardContent>
      </Card>
      <RewardClaims
        winningSubmissions={
          <WinningSubmissions
            items={winning.data}
            onClaim={(submissionId) => claim.mutate(submissionId)}
            claiming={claim.isPending ? (claim.variables ?? null) : null}
          />
        }
        claimsHistory={<ClaimsHistory claims={claims.data} />}
      />
    </div>
  );
}
