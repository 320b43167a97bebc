import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { NotificationList } from '#contract/notifications';
import { sharedLiveConnection } from '#web/lib/live-connection';
import { useAuth } from '#web/lib/session/auth-provider';
import { notificationPagesKey, notificationsKey } from '../api/list-notifications';
import { prependNotification } from '../lib/notification-cache';

/**
 * Live notifications on the page's one /ws socket (the chat's): a `notification` frame goes to the
 * top of the bell's list and bumps its count; the /notifications page reads again. After a
 * reconnect both read again, since frames sent while the socket was down are lost.
 */
export function useLiveNotifications(userId: number) {
  const { token } = useAuth();
  const queryClient = useQueryClient();
  const connection = sharedLiveConnection();

  useEffect(() => {
    connection.start();
  }, [connection]);

  useEffect(() => {
    connection.setToken(token);
  }, [connection, token]);

  useEffect(() => {
    let dropped = false;
    const stopStatus = connection.onStatus((status) => {
      if (status === 'reconnecting' || status === 'offline') dropped = true;
      else if (status === 'open' && dropped) {
        dropped = false;
        void queryClient.invalidateQueries({ queryKey: notificationsKey(userId) });
      }
    });
    const stopFrames = connection.subscribe((frame) => {
      if (frame.type !== 'notification') return;
      const key = notificationsKey(userId);
      if (queryClient.getQueryData(key)) {
        queryClient.setQueryData<NotificationList>(key, (page) =>
          prependNotification(page, frame.notification),
        );
      } else void queryClient.invalidateQueries({ queryKey: key, exact: true });
      void queryClient.invalidateQueries({ queryKey: notificationPagesKey(userId) });
    });
    return () => {
      stopStatus();
      stopFrames();
    };
  }, [connection, queryClient, userId]);
}
