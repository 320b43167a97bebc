import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '#contract/users';
import { withQuery } from '../lib/with-query';

/** GET /api/admin/users?q=, read only while the users dialog is open. */
export const useAdminUsers = (q: string, enabled: boolean) =>
  useQuery<PublicUser[]>({
    queryKey: [withQuery('/api/admin/users', { q })],
    placeholderData: keepPreviousData,
    enabled,
  });
