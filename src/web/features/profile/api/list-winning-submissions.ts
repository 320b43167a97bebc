import { useQuery } from '@tanstack/react-query';
import type { WinningSubmission } from '#contract/claims';
import { apiGet } from '#web/lib/api-client';

/** GET /api/winning-submissions: the signed-in user's winning proofs, keyed by user id. */
export const winningKey = (userId: number) => ['/api/winning-submissions', userId] as const;

export const useWinningSubmissions = (userId: number) =>
  useQuery({
    queryKey: winningKey(userId),
    queryFn: ({ signal }) => apiGet<WinningSubmission[]>('/api/winning-submissions', { signal }),
  });
