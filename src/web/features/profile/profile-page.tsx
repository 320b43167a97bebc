import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PublicUser } from '#contract/users';
import { ConnectPrompt } from '#web/components/common/connect-prompt';
import { ConnectWalletButton } from '#web/components/common/connect-wallet-button';
import { PageHeader } from '#web/components/common/page-header';
import { PaymentWalletGate } from '#web/components/payments/payment-wallet-gate';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { useAuth } from '#web/lib/session/auth-provider';
import { useClaimPrize } from './api/claim-prize';
import { useProfile } from './api/get-profile';
import { useClaims } from './api/list-claims';
import { useWinningSubmissions } from './api/list-winning-submissions';
import { ClaimsHistory } from './components/claims-history';
import { ProfileSummary } from './components/profile-summary';
import { RecentActivity } from './components/recent-activity';
import { RewardClaims } from './components/reward-claims';
import { WinningSubmissions } from './components/winning-submissions';

/**
 * /profile: the signed-in user's record, activity and prizes; `notificationSettings` is the
 * notifications feature's card (email, switches), composed in by the router.
 */
export default function ProfilePage({ notificationSettings }: { notificationSettings?: ReactNode } = {}) {
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
  return <SignedInProfile user={user} notificationSettings={notificationSettings} />;
}

function SignedInProfile({
  user,
  notificationSettings,
}: {
  user: PublicUser;
  notificationSettings?: ReactNode;
}) {
  const profile = useProfile(user.id);
  const claims = useClaims(user.id);
  const winning = useWinningSubmissions(user.id);
  const claim = useClaimPrize(user.id, user.walletAddress);
  const winningList = (canClaim: boolean) => (
    <WinningSubmissions
      items={winning.data}
      onClaim={canClaim ? (submissionId) => claim.mutate(submissionId) : undefined}
      claiming={claim.isPending ? (claim.variables ?? null) : null}
    />
  );
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
          // A prize to claim: the account's wallet is asked for first, the list staying in view.
          winning.data?.some((item) => item.claimStatus === 'pending') ? (
            <PaymentWalletGate
              walletAddress={user.walletAddress}
              intro="Prizes are paid to your account's wallet"
              action="claim your prize"
              whileLocked={winningList(false)}
            >
              {winningList(true)}
            </PaymentWalletGate>
          ) : (
            winningList(true)
          )
        }
        claimsHistory={<ClaimsHistory claims={claims.data} />}
      />
      {notificationSettings}
    </div>
  );
}
