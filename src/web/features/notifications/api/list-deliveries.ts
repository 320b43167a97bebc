import { useQuery } from '@tanstack/react-query';
import type { AdminDelivery } from '#contract/notifications';
import { apiGet } from '#web/lib/api-client';
import { USER_SCOPED } from '#web/lib/session/auth-provider';

/** GET /api/admin/notifications/deliveries: recent email and webhook deliveries, failures included. */
export const deliveriesKey = ['/api/admin/notifications/deliveries', USER_SCOPED] as const;

/** Read when the admin opens the list, and every 30 s while it is open (retries move on their own). */
export function useNotificationDeliveries() {
  return useQuery({
    queryKey: deliveriesKey,
    queryFn: ({ signal }) =>
      apiGet<{ items: AdminDelivery[] }>('/api/admin/notifications/deliveries', { signal }),
    refetchInterval: 30_000,
    staleTime: 0,
  });
}
