import { useQuery } from '@tanstack/react-query';
import type { AdminStats } from '#contract/admin';

// Keys are the paths (the default GET of docs/product.md#request-conventions); every admin read starts with '/api/admin'.

/** GET /api/admin/stats: the admin panel's counts. */
export const useAdminStats = () => useQuery<AdminStats>({ queryKey: ['/api/admin/stats'] });
