import type { NotificationItem } from '#contract/notifications';
import { formatDayTime } from '#web/lib/dates';
import { cn } from '#web/lib/utils';

/**
 * One notification: title, body and when; an unread one is marked (a dot, bold title, and
 * 'Unread' for screen readers). The whole row is the button that opens its link.
 */
export function NotificationRow({
  notification,
  onOpen,
}: {
  notification: NotificationItem;
  onOpen: (notification: NotificationItem) => void;
}) {
  const unread = notification.readAt === null;
  return (
    <button
      type="button"
      onClick={() => onOpen(notification)}
      data-unread={unread}
      className={cn(
        'flex w-full gap-3 px-3 py-2 text-left text-sm transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
        unread && 'bg-primary/5',
      )}
    >
      <span
        aria-hidden
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
      />
      <span className="min-w-0 flex-1 space-y-0.5">
        <span className={cn('block break-words', unread ? 'font-semibold' : 'font-medium')}>
          {unread && <span className="sr-only">Unread: </span>}
          {notification.title}
        </span>
        <span className="block break-words text-muted-foreground">{notification.body}</span>
        <time dateTime={notification.createdAt} className="block text-xs text-muted-foreground">
          {formatDayTime(notification.createdAt)}
        </time>
      </span>
    </button>
  );
}
