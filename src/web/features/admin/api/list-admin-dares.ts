import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminDare } from '#contract/admin';
import { withQuery } from '../lib/with-query';

/** GET /api/admin/dares. A changed search keeps the previous list on screen until the new one arrives. */
export const useAdminDares = (filter: { q?: string; major?: boolean }) =>
  useQuery<AdminDare[]>({
    queryKey: [withQuery('/api/admin/dares', { q: filter.q, major: filter.major })],
    placeholderData: keepPreviousData,
  });
