import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationList } from '#contract/notifications';
import { apiGet } from '#web/lib/api-client';
import { USER_SCOPED } from '#web/lib/session/auth-provider';

/**
 * GET /api/notifications?before=<id>: the signed-in user's notifications, newest first, 50 a page,
 * with the unread count. Keyed by user (logout drops them); the bell reads the first page, the
 * /notifications page reads page after page.
 */
export const notificationsKey = (userId: number) => ['/api/notifications', USER_SCOPED, { userId }] as const;
export const notificationPagesKey = (userId: number) => [...notificationsKey(userId), 'pages'] as const;

export function fetchNotifications(before: number | null, signal?: AbortSignal): Promise<NotificationList> {
  const query = before === null ? '' : `?before=${before}`;
  return apiGet<NotificationList>(`/api/notifications${query}`, { signal });
}

/** The first page and the unread count: the bell's. Kept current by the /ws frames. */
export function useNotifications(userId: number) {
  return useQuery({
    queryKey: notificationsKey(userId),
    queryFn: ({ signal }) => fetchNotifications(null, signal),
  });
}

/** Every page read so far ('Load more' asks for the one before the oldest shown). */
export function useNotificationPages(userId: number) {
  return useInfiniteQuery({
    queryKey: notificationPagesKey(userId),
    queryFn: ({ pageParam, signal }) => fetchNotifications(pageParam, signal),
    initialPageParam: null as number | null,
    // A page that is not full is the last one.
    getNextPageParam: (last) =>
      last.items.length < NOTIFICATIONS_PAGE_SIZE ? null : (last.items.at(-1)?.id ?? null),
    staleTime: 0,
  });
}
