import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dare } from '#contract/dares';
import { apiGet } from './api-client';

/** GET /api/dares/{id}. The key has the default-read shape of docs/product.md#request-conventions: its parts joined form the path. */
export const dareQueryKey = (id: number) => ['/api/dares', id] as const;

export function getDare(id: number, options?: { signal?: AbortSignal }): Promise<Dare> {
  return apiGet<Dare>(`/api/dares/${id}`, options);
}

export const dareQueryOptions = (id: number) =>
  queryOptions({ queryKey: dareQueryKey(id), queryFn: ({ signal }) => getDare(id, { signal }) });

/** Disabled for an id that is not a positive integer: such a dare cannot exist. */
export function useDare(id: number | null) {
  return useQuery({ ...dareQueryOptions(id ?? 0), enabled: id !== null });
}
