import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiGet } from './api-client';

/** Spec section 7: a read without its own queryFn GETs its query key joined with '/'. */
export const defaultQueryFn: QueryFunction = ({ queryKey, signal }) => apiGet(queryKey.join('/'), { signal });

/** Spec section 7: reads do not retry, do not refetch on focus and never go stale. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}
