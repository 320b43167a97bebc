import { Crown, Flame, Search, Users, Video } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/common/empty-state';
import { PageHeader } from '../../components/common/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useAuth } from '../auth/auth-provider';
import { useAdminStats } from './api/admin';
import { AdminStats } from './components/admin-stats';
import { SubmissionsManagement } from './components/submissions-management';
import { SystemControls } from './components/system-controls';

type AdminTab = 'dares' | 'major' | 'submissions' | 'system';

/** Spec: admin lists scroll at about 96 height units. */
const LIST_CLASS = 'max-h-96 overflow-y-auto';

/** /admin. Visitors and non-admins see Access Denied; admin reads run only for admins. */
export default function AdminPage() {
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
  return <AdminDashboard />;
}

function AdminDashboard() {
  const [tab, setTab] = useState<AdminTab>('dares');
  const [search, setSearch] = useState('');
  const stats = useAdminStats().data;

  return (
    <div className="space-y-6">
      <PageHeader title="Admin Panel" description="Moderate dares and submissions, pick winners." />
      <AdminStats stats={stats} />
      <Card>
        <CardHeader>
          <CardTitle>Quick Actions</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {/* Spec: their behaviour is not shown. Three open the tab that does the job; users have no list yet. */}
          <Button variant="outline" disabled>
            <Users aria-hidden /> Manage Users
          </Button>
          <Button variant="outline" onClick={() => setTab('dares')}>
            <Flame aria-hidden /> Manage Dares
          </Button>
          <Button variant="outline" onClick={() => setTab('submissions')}>
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
          <TabsTrigger value="system">System Controls</TabsTrigger>
        </TabsList>
        <TabsContent value="dares" className="space-y-3">
          <div className="relative max-w-sm">
            <Label htmlFor="admin-dare-search" className="sr-only">
              Search dares
            </Label>
            <Search
              className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
              aria-hidden
            />
            <Input
              id="admin-dare-search"
              type="search"
              placeholder="Search dares..."
              className="pl-9"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          <div className={LIST_CLASS}>
            <EmptyState title="No dares yet" />
          </div>
        </TabsContent>
        <TabsContent value="major" className="space-y-3">
          <div className={LIST_CLASS}>
            <EmptyState title="No major dares yet" />
          </div>
        </TabsContent>
        <TabsContent value="submissions">
          <SubmissionsManagement listClassName={LIST_CLASS} />
        </TabsContent>
        <TabsContent value="system">
          <SystemControls />
        </TabsContent>
      </Tabs>
    </div>
  );
}
