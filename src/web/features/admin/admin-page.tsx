import { EmptyState, PageHeader, StatTile } from '../../components/common/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useAuth } from '../auth/auth-provider';

export default function AdminPage() {
  const { isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <div>
        <PageHeader title="Admin Panel" />
        <p className="rounded-lg border border-destructive/50 bg-destructive/10 p-6 text-center">
          Access Denied - You don't have admin privileges to access this panel.
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <PageHeader title="Admin Panel" description="Moderate dares and submissions, pick winners." />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <StatTile label="Total Users" value="0" />
        <StatTile label="Total Dares" value="0" />
        <StatTile label="SOL Staked" value="0 SOL" />
        <StatTile label="Pending Submissions" value="0" />
      </div>
      <Tabs defaultValue="dares">
        <TabsList>
          <TabsTrigger value="dares">Dares Management</TabsTrigger>
          <TabsTrigger value="major">Major Dares</TabsTrigger>
          <TabsTrigger value="submissions">Submissions Management</TabsTrigger>
          <TabsTrigger value="system">System Controls</TabsTrigger>
        </TabsList>
        <TabsContent value="dares">
          <EmptyState title="No dares yet" />
        </TabsContent>
        <TabsContent value="major">
          <EmptyState title="No major dares yet" />
        </TabsContent>
        <TabsContent value="submissions">
          <EmptyState title="No submissions yet" />
        </TabsContent>
        <TabsContent value="system">
          <EmptyState title="System Controls" description="Dare creation and user registration switches." />
        </TabsContent>
      </Tabs>
    </div>
  );
}
