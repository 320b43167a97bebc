import type { AddPoolRequest, Dare } from '#contract/dares';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/dares/{id}/add-pool: credits a contribution verified on chain; answers the dare. */
export function addToPool(dareId: number, request: AddPoolRequest): Promise<Dare> {
  return apiRequest<Dare>('POST', `/api/dares/${dareId}/add-pool`, request);
}
