import { Award, Coins, Trophy } from 'lucide-react';
import { EmptyState, PageHeader, StatTile } from '../../components/common/page';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

const CATEGORIES = [
  { label: 'Most Wins', icon: Trophy },
  { label: 'Highest Earner', icon: Coins },
  { label: 'Most Active', icon: Award },
];

export default function LeaderboardPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Leaderboard" description="The daredevils who earned the most." />
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Card>
          <CardHeader>
            <CardTitle>Top Earners</CardTitle>
          </CardHeader>
          <CardContent>
            <EmptyState title="No winners yet" description="Win a dare to appear here." />
          </CardContent>
        </Card>
        <div className="space-y-4">
          <Card>
            <CardHeader>
              <CardTitle>Quick Stats</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <StatTile label="Total Users" value="0" />
              <StatTile label="Total Winnings" value="0 SOL" />
              <StatTile label="Total Wins" value="0" />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Categories</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              {CATEGORIES.map(({ label, icon: Icon }) => (
                <div key={label} className="flex items-center justify-between rounded-md border p-3 text-sm">
                  <span className="flex items-center gap-2">
                    <Icon className="size-4 text-primary" aria-hidden /> {label}
                  </span>
                  <span className="font-medium">N/A</span>
                </div>
              ))}
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
