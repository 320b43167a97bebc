import { useInfiniteQuery } from '@tanstack/react-query';
import type { Dare, DareListQuery } from '#contract/dares';
import { toApiError } from '#web/lib/api-client';
import { readToken } from '#web/lib/storage';

export type DareListFilter = DareListQuery['filter'];

export interface DareListParams {
  filter: DareListFilter;
  /** Searched in title and description; blank means no search. */
  q?: string;
}

export interface DarePage {
  dares: Dare[];
  /** The `x-next-cursor` header: where the next page starts, null on the last page. */
  nextCursor: string | null;
}

/** Same head as the dare read (['/api/dares', id]), so one invalidation of '/api/dares' refreshes both. */
export const dareListQueryKey = (params: DareListParams) =>
  ['/api/dares', { filter: params.filter, q: params.q?.trim() ?? '' }] as const;

export function dareListUrl(params: DareListParams, cursor?: string | null): string {
  const search = new URLSearchParams({ filter: params.filter });
  const q = params.q?.trim();
  if (q) search.set('q', q);
  if (cursor) search.set('cursor', cursor);
  return `/api/dares?${search}`;
}

/** GET /api/dares: one page of dares; the cursor of the next page comes in a header, not the body. */
export async function listDares(
  params: DareListParams,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<DarePage> {
  const token = readToken();
  const response = await fetch(dareListUrl(params, cursor), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!response.ok) throw await toApiError(response);
  return { dares: (await response.json()) as Dare[], nextCursor: response.headers.get('x-next-cursor') };
}

/** The dares, page by page ('Load more' fetches the next one). */
export function useDareList(params: DareListParams) {
  return useInfiniteQuery({
    queryKey: dareListQueryKey(params),
    queryFn: ({ pageParam, signal }) => listDares(params, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
