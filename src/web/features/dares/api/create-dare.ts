import type { CreateDareRequest, Dare } from '#contract/dares';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/dares: the dare, with the signature of its verified stake; answers 201 and the dare. */
export function createDare(request: CreateDareRequest): Promise<Dare> {
  return apiRequest<Dare>('POST', '/api/dares', request);
}
