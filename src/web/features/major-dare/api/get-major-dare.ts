import { useQuery } from '@tanstack/react-query';
import { POLL_MS } from '#contract/limits';
import type { MajorDare } from '#contract/major-dare';

/** docs/product.md#other-reads: the read's initial value, shown until (and if) the server answers. */
export const NO_MAJOR_DARE: MajorDare = { isActive: false };

/** GET /api/major-dare, polled every 30 s. A failed read keeps showing 'No Major Dare Active'. */
export function useMajorDare() {
  const query = useQuery<MajorDare>({
    queryKey: ['/api/major-dare'],
    refetchInterval: POLL_MS.majorDare,
    placeholderData: NO_MAJOR_DARE,
  });
  return query.data ?? NO_MAJOR_DARE;
}
