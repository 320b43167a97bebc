import type { ReactNode } from 'react';
import { EmptyState } from '#web/components/common/empty-state';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';

/**
 * docs/product.md#profile: Reward Claims, with Winning Submissions and Claims History. The claims issue passes the
 * two lists (GET /api/winning-submissions and GET /api/claims, keyed by user id).
 */
export function RewardClaims({
  winningSubmissions,
  claimsHistory,
}: {
  winningSubmissions?: ReactNode;
  claimsHistory?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reward Claims</CardTitle>
      </CardHeader>
      {/* Columns that may shrink below their content (issue 37, item 10): a long title or address
          wraps or truncates inside a 375 px phone instead of widening the card. */}
      <CardContent className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <section aria-labelledby="winning-submissions" className="min-w-0">
          <h3 id="winning-submissions" className="mb-2 font-medium">
            Winning Submissions
          </h3>
          {winningSubmissions ?? <EmptyState title="No winning submissions yet" />}
        </section>
        <section aria-labelledby="claims-history" className="min-w-0">
          <h3 id="claims-history" className="mb-2 font-medium">
            Claims History
          </h3>
          {claimsHistory ?? <EmptyState title="No claims yet" />}
        </section>
      </CardContent>
    </Card>
  );
}
