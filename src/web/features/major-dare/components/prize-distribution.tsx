import { MAJOR_DARE_SPLIT } from '#contract/limits';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';

/** docs/product.md#major-dare-winners: the prize splits 70% to the admin's selection and 30% to the community vote. */
export function PrizeDistribution({
  adminPrize,
  communityPrize,
}: {
  adminPrize?: string;
  communityPrize?: string;
}) {
  // The server's amounts: exact lamports, the remainder lamport to the admin's pick.
  const parts = [
    { percent: MAJOR_DARE_SPLIT.adminPercent, label: "Admin's selection", amount: adminPrize },
    {
      percent: MAJOR_DARE_SPLIT.communityPercent,
      label: 'Community vote (highest voted)',
      amount: communityPrize,
    },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Prize Distribution</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        {parts.map(({ percent, label, amount }) => (
          <div key={label} className="rounded-md border p-4">
            <p className="text-2xl font-bold">{percent}%</p>
            <p className="text-sm text-muted-foreground">{label}</p>
            {amount !== undefined && <p className="mt-1 font-medium text-primary">{amount} SOL</p>}
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
