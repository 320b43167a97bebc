import type { Dare } from '#contract/dares';
import type { CreateMajorDareRequest } from '#contract/major-dare';
import { apiRequest } from '#web/lib/api-client';

/** POST /api/admin/major-dare with the verified prize payment; 201 new, 200 the same request again. */
export function createMajorDare(request: CreateMajorDareRequest): Promise<Dare> {
  return apiRequest<Dare>('POST', '/api/admin/major-dare', request);
}
