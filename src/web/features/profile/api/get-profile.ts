import { useQuery } from '@tanstack/react-query';
import type { Profile } from '#contract/profile';
import { apiGet } from '#web/lib/api-client';

// docs/product.md#api-calls: the profile page's reads are keyed by user id (a new sign-in never shows the last user's).

/** GET /api/profile: the signed-in user's totals. */
export const profileKey = (userId: number) => ['/api/profile', userId] as const;

export const useProfile = (userId: number) =>
  useQuery({
    queryKey: profileKey(userId),
    queryFn: ({ signal }) => apiGet<Profile>('/api/profile', { signal }),
  });
