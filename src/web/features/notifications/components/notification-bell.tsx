import { Bell } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { NotificationItem } from '#contract/notifications';
import { Button } from '#web/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '#web/components/ui/popover';
import { Spinner } from '#web/components/ui/spinner';
import { useNotifications } from '../api/list-notifications';
import { useMarkRead } from '../api/mark-read';
import { useLiveNotifications } from '../hooks/use-live-notifications';
import { appPath, unreadLabel } from '../lib/notification-cache';
import { NotificationRow } from './notification-row';

/** How many the bell's list shows; the rest are on /notifications. */
const BELL_ITEMS = 8;

/**
 * The top bar's bell (issue 35): the unread count on it, the newest notifications under it, a
 * click on one marks it read and opens its link; 'Mark all as read'; a link to /notifications.
 */
export default function NotificationBell({ userId }: { userId: number }) {
  useLiveNotifications(userId);
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const notifications = useNotifications(userId);
  const markRead = useMarkRead(userId);
  const unread = notifications.data?.unread ?? 0;
  const badge = unreadLabel(unread);
  const items = notifications.data?.items.slice(0, BELL_ITEMS) ?? [];

  const openNotification = (notification: NotificationItem) => {
    if (notification.readAt === null) markRead.mutate([notification.id]);
    setOpen(false);
    void navigate(appPath(notification.link));
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative size-9 shrink-0"
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
          data-testid="notification-bell"
        >
          <Bell aria-hidden />
          {badge && (
            <span
              aria-hidden
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-[11px] leading-5 font-bold text-destructive-foreground"
            >
              {badge}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        aria-label="Notifications"
        className="flex max-h-[min(32rem,calc(100dvh-5rem))] w-[min(24rem,calc(100vw-1rem))] flex-col"
      >
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2">
          <p className="font-semibold">Notifications</p>
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate(undefined)}
          >
            Mark all as read
          </Button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {notifications.isPending ? (
            <Spinner label="Loading notifications" className="p-4" />
          ) : notifications.isError ? (
            <p className="p-4 text-sm text-muted-foreground">Notifications could not be loaded.</p>
          ) : items.length === 0 ? (
            <p className="p-4 text-sm text-muted-foreground">
              Nothing yet. We will tell you here when something concerns you.
            </p>
          ) : (
            <ul aria-label="Latest notifications" className="divide-y">
              {items.map((notification) => (
                <li key={notification.id}>
                  <NotificationRow notification={notification} onOpen={openNotification} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="border-t px-3 py-2 text-center">
          <Link
            to="/notifications"
            className="text-sm font-medium text-primary underline-offset-4 hover:underline"
            onClick={() => setOpen(false)}
          >
            See all notifications
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  );
}
