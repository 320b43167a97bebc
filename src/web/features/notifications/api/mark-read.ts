import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '#contract/notifications';
import { toast } from '#web/components/ui/use-toast';
import { apiRequest } from '#web/lib/api-client';
import { markPageRead } from '../lib/notification-cache';
import { notificationPagesKey, notificationsKey } from './list-notifications';

/** POST /api/notifications/read: these ids, or all when none are named; answers the unread count. */
export const markNotificationsRead = (ids?: number[]) =>
  apiRequest<{ unread: number }>('POST', '/api/notifications/read', ids ? { ids } : {});

/** Marks read on the server, then in the bell's page and the /notifications pages alike. */
export function useMarkRead(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => markNotificationsRead(ids),
    onSuccess: ({ unread }, ids) => {
      const readAt = new Date().toISOString();
      queryClient.setQueryData<NotificationList>(notificationsKey(userId), (page) =>
        markPageRead(page, ids, readAt, unread),
      );
      queryClient.setQueryData<InfiniteData<NotificationList, number | null>>(
        notificationPagesKey(userId),
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => markPageRead(page, ids, readAt, unread) ?? page),
          },
      );
    },
    onError: (error) =>
      toast({ title: 'Could not mark as read', description: error.message, variant: 'destructive' }),
  });
}
