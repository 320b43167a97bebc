import { useQuery } from '@tanstack/react-query';
import type { Claim } from '#contract/claims';
import { apiGet } from '#web/lib/api-client';

/** GET /api/claims: the signed-in user's reward claims, keyed by user id like every profile read. */
export const claimsKey = (userId: number) => ['/api/claims', userId] as const;

export const useClaims = (userId: number) =>
  useQuery({
    queryKey: claimsKey(userId),
    queryFn: ({ signal }) => apiGet<Claim[]>('/api/claims', { signal }),
  });
