import { Crown, Flame, Video } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { PageHeader } from '#web/components/common/page-header';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { useAuth } from '#web/lib/session/auth-provider';
import { useAdminStats } from './api/get-admin-stats';
import { useFeePayerStatus } from './api/get-fee-payer';
import { useHealth } from './api/get-health';
import { AdminStats } from './components/admin-stats';
import { DaresManagement } from './components/dares-management';
import { FeePayerStatus } from './components/fee-payer-status';
import { GuardianStatus } from './components/guardian-status';
import { MajorDares } from './components/major-dares';
import { PayoutProposals } from './components/payout-proposals';
import { SubmissionsManagement } from './components/submissions-management';
import { SystemControls } from './components/system-controls';
import { UsersDialog } from './components/users-dialog';

type AdminTab = 'dares' | 'major' | 'submissions' | 'notifications' | 'system';

/** docs/product.md#admin-panel: admin lists scroll at about 96 height units. */
const LIST_CLASS = 'max-h-96 overflow-y-auto';

/**
 * /admin. Visitors and non-admins see Access Denied; admin reads run only for admins.
 * `renderDeliveries` is the notifications feature's deliveries list, composed in by the router.
 */
export default function AdminPage({
  renderDeliveries,
}: {
  renderDeliveries?: (listClassName: string) => ReactNode;
} = {}) {
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <div>
        <PageHeader title="Admin Panel" />
        <p
          role="alert"
          className="rounded-lg border border-destructive/50 bg-destructive/10 p-6 text-center font-medium"
        >
          Access Denied - You don't have admin privileges to access this panel.
        </p>
      </div>
    );
  }
  return <AdminDashboard renderDeliveries={renderDeliveries} />;
}

function AdminDashboard({ renderDeliveries }: { renderDeliveries?: (listClassName: string) => ReactNode }) {
  const { user } = useAuth();
  const [tab, setTab] = useState<AdminTab>('dares');
  // 'View Submissions' in Dares Management narrows the submissions tab to one dare.
  const [submissionsOf, setSubmissionsOf] = useState<{ id: number; title: string } | null>(null);
  const stats = useAdminStats().data;
  const feePayer = useFeePayerStatus().data;
  const guardian = useHealth().data?.guardian;

  return (
    <div className="space-y-6">
      <PageHeader title="Admin Panel" description="Moderate dares and submissions, pick winners." />
      <AdminStats stats={stats} />
      <FeePayerStatus status={feePayer} />
      <GuardianStatus guardian={guardian} />
      <PayoutProposals />
      <Card>
        <CardHeader>
          <CardTitle>Quick Actions</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {/* Quick actions (docs/product.md#admin-panel): Users open their list; the others open their tab. */}
          <UsersDialog listClassName={LIST_CLASS} />
          <Button variant="outline" onClick={() => setTab('dares')}>
            <Flame aria-hidden /> Manage Dares
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              setSubmissionsOf(null);
              setTab('submissions');
            }}
          >
            <Video aria-hidden /> Review Submissions
          </Button>
          <Button variant="outline" onClick={() => setTab('major')}>
            <Crown aria-hidden /> Major Dare
          </Button>
        </CardContent>
      </Card>
      <Tabs value={tab} onValueChange={(value) => setTab(value as AdminTab)}>
        <TabsList className="h-auto">
          <TabsTrigger value="dares">Dares Management</TabsTrigger>
          <TabsTrigger value="major">Major Dares</TabsTrigger>
          <TabsTrigger value="submissions">Submissions Management</TabsTrigger>
          {renderDeliveries && <TabsTrigger value="notifications">Notifications</TabsTrigger>}
          <TabsTrigger value="system">System Controls</TabsTrigger>
        </TabsList>
        <TabsContent value="dares">
          <DaresManagement
            listClassName={LIST_CLASS}
            onViewSubmissions={(dare) => {
              setSubmissionsOf({ id: dare.id, title: dare.title });
              setTab('submissions');
            }}
          />
        </TabsContent>
        <TabsContent value="major">
          <MajorDares listClassName={LIST_CLASS} walletAddress={user?.walletAddress ?? null} />
        </TabsContent>
        <TabsContent value="submissions">
          <SubmissionsManagement
            listClassName={LIST_CLASS}
            dare={submissionsOf}
            onShowAll={() => setSubmissionsOf(null)}
          />
        </TabsContent>
        {renderDeliveries && <TabsContent value="notifications">{renderDeliveries(LIST_CLASS)}</TabsContent>}
        <TabsContent value="system">
          <SystemControls />
        </TabsContent>
      </Tabs>
    </div>
  );
}
