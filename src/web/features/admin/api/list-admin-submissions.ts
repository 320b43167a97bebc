import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminSubmission } from '#contract/admin';
import { withQuery } from '../lib/with-query';

/**
 * GET /api/admin/submissions, of every dare or of one. Fetched again whenever a list that shows it
 * opens: the Payout proposals card reads it from the panel's first paint, and proofs arrive all the
 * time, so Submissions Management must not show the list as it was then.
 */
export const useAdminSubmissions = (filter: { dareId?: number } = {}) =>
  useQuery<AdminSubmission[]>({
    queryKey: [withQuery('/api/admin/submissions', { dareId: filter.dareId })],
    placeholderData: keepPreviousData,
    refetchOnMount: 'always',
  });
