import { Crown } from 'lucide-react';
import { EmptyState } from '../../components/common/empty-state';
import { PageHeader } from '../../components/common/page-header';
import { MajorDareDetails } from './components/major-dare-details';
import { PrizeDistribution } from './components/prize-distribution';
import type { MajorDareView } from './types';

/** Spec section 7: the major dare read starts from this until its first answer. */
const NO_MAJOR_DARE: MajorDareView = { isActive: false };

/** /major-dare. GET /api/major-dare (polled 30 s) replaces the placeholder below. */
export default function MajorDarePage() {
  const majorDare = NO_MAJOR_DARE as MajorDareView; // useMajorDare().data
  return (
    <div className="space-y-6">
      <PageHeader title="Major Dare" description="The weekly challenge with the biggest prize pool." />
      {majorDare.isActive ? (
        <MajorDareDetails majorDare={majorDare} />
      ) : (
        <EmptyState
          icon={Crown}
          title="No Major Dare Active"
          description="The next major dare will be announced soon!"
        />
      )}
      <PrizeDistribution pool={majorDare.isActive ? majorDare.totalPool : undefined} />
    </div>
  );
}
