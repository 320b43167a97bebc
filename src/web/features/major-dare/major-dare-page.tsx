import { Crown } from 'lucide-react';
import type { ReactNode } from 'react';
import { isDareClosed } from '#contract/dare-rules';
import type { MajorDare } from '#contract/major-dare';
import { EmptyState } from '#web/components/common/empty-state';
import { PageHeader } from '#web/components/common/page-header';
import { ShareButton } from '#web/components/common/share-button';
import { useMajorDare } from './api/get-major-dare';
import { MajorDareDetails } from './components/major-dare-details';
import { PrizeDistribution } from './components/prize-distribution';

export type ActiveMajorDare = Extract<MajorDare, { isActive: true }>;

/**
 * /major-dare: GET /api/major-dare, polled every 30 s. Submit Video and the submissions grid come
 * from the submissions feature, Add to Pool from the dares feature, composed in routes.tsx
 * (features do not import each other).
 */
export default function MajorDarePage({
  renderSubmit,
  renderSubmissions,
  renderAddToPool,
}: {
  renderSubmit?: (dare: ActiveMajorDare & { closed: boolean }) => ReactNode;
  renderSubmissions?: (dareId: number) => ReactNode;
  /** The dares feature's Add to Pool (issue 37, item 1): backing gives a vote on the 30 % prize. */
  renderAddToPool?: (dare: { id: number; closed: boolean }) => ReactNode;
}) {
  const majorDare = useMajorDare();
  if (!majorDare.isActive) {
    return (
      <div className="space-y-6">
        <PageHeader title="Major Dare" description="The weekly challenge with the biggest prize pool." />
        <EmptyState
          icon={Crown}
          title="No Major Dare Active"
          description="The next major dare will be announced soon!"
        />
        <PrizeDistribution />
      </div>
    );
  }
  const closed = isDareClosed(majorDare, new Date());
  return (
    <div className="space-y-6">
      <PageHeader title="Major Dare" description="The weekly challenge with the biggest prize pool." />
      <MajorDareDetails
        majorDare={majorDare}
        closed={closed}
        submitAction={renderSubmit?.({ ...majorDare, closed })}
        actions={
          <>
            {renderAddToPool?.({ id: majorDare.id, closed })}
            <ShareButton title={majorDare.title} description={majorDare.description} path="/major-dare" />
          </>
        }
        submissions={renderSubmissions?.(majorDare.id)}
      />
      <PrizeDistribution adminPrize={majorDare.adminPrize} communityPrize={majorDare.communityPrize} />
    </div>
  );
}
