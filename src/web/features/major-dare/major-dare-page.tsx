import { Crown } from 'lucide-react';
import { PageHeader } from '../../components/common/page';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

export default function MajorDarePage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Major Dare" description="The weekly challenge with the biggest prize pool." />
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center">
        <Crown className="size-10 text-primary" aria-hidden />
        <p className="text-lg font-semibold">No Major Dare Active</p>
        <p className="text-sm text-muted-foreground">The next major dare will be announced soon!</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Prize Distribution</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-2">
          <div className="rounded-md border p-4">
            <p className="text-2xl font-bold">70%</p>
            <p className="text-sm text-muted-foreground">Admin's selection</p>
          </div>
          <div className="rounded-md border p-4">
            <p className="text-2xl font-bold">30%</p>
            <p className="text-sm text-muted-foreground">Community vote (highest voted)</p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
