import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminSubmission } from '#contract/admin';
import { withQuery } from '../lib/with-query';

/** GET /api/admin/submissions, of every dare or of one. */
export const useAdminSubmissions = (filter: { dareId?: number } = {}) =>
  useQuery<AdminSubmission[]>({
    queryKey: [withQuery('/api/admin/submissions', { dareId: filter.dareId })],
    placeholderData: keepPreviousData,
  });
