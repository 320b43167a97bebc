import { useQuery } from '@tanstack/react-query';
import type { DareBacker } from '#contract/dares';
import { apiGet } from '#web/lib/api-client';

/** Under the dare's key (['/api/dares', id]): a payment that refreshes the dare refreshes this. */
export const dareBackersQueryKey = (id: number) => ['/api/dares', id, 'backers'] as const;

/** GET /api/dares/{id}/backers: who put SOL into the pool, largest first. */
export function useDareBackers(id: number) {
  return useQuery({
    queryKey: dareBackersQueryKey(id),
    queryFn: ({ signal }) => apiGet<DareBacker[]>(`/api/dares/${id}/backers`, { signal }),
  });
}
