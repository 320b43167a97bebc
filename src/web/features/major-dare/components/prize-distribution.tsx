import { MAJOR_DARE_SPLIT } from '../../../../contract/limits';
import { isSolAmount, lamportsToSol, solToLamports } from '../../../../contract/money';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

/** Exact in lamports: a float 0.7 * pool would print artefacts such as 0.06999999999999999. */
function share(pool: string, percent: number): string {
  return lamportsToSol((solToLamports(pool) * BigInt(percent)) / 100n);
}

/** Spec: the prize splits 70% to the admin's selection and 30% to the community vote. */
export function PrizeDistribution({ pool }: { pool?: string }) {
  const parts = [
    { percent: MAJOR_DARE_SPLIT.adminPercent, label: "Admin's selection" },
    { percent: MAJOR_DARE_SPLIT.communityPercent, label: 'Community vote (highest voted)' },
  ];
  const hasPool = pool !== undefined && isSolAmount(pool);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Prize Distribution</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 sm:grid-cols-2">
        {parts.map(({ percent, label }) => (
          <div key={label} className="rounded-md border p-4">
            <p className="text-2xl font-bold">{percent}%</p>
            <p className="text-sm text-muted-foreground">{label}</p>
            {hasPool && <p className="mt-1 font-medium text-primary">{share(pool, percent)} SOL</p>}
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
