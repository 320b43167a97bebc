import type { NotificationItem, NotificationList } from '#contract/notifications';

/**
 * A live notification put at the top of the first page, once (a frame that arrives again after a
 * reconnect, or one already fetched, changes nothing), with the unread count bumped when it is new
 * and unread.
 */
export function prependNotification(
  page: NotificationList | undefined,
  notification: NotificationItem,
): NotificationList | undefined {
  if (!page) return page;
  if (page.items.some((item) => item.id === notification.id)) return page;
  const items = [notification, ...page.items].sort((a, b) => b.id - a.id);
  return { items, unread: page.unread + (notification.readAt === null ? 1 : 0) };
}

/**
 * The page after POST /api/notifications/read: the named items (every item when `ids` is left out)
 * read at `readAt` unless already read, and the server's unread count.
 */
export function markPageRead(
  page: NotificationList | undefined,
  ids: readonly number[] | undefined,
  readAt: string,
  unread: number,
): NotificationList | undefined {
  if (!page) return page;
  const named = ids ? new Set(ids) : null;
  return {
    items: page.items.map((item) =>
      item.readAt === null && (named === null || named.has(item.id)) ? { ...item, readAt } : item,
    ),
    unread,
  };
}

/** The bell's badge: nothing at 0, the number up to 99, then '99+'. */
export function unreadLabel(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** Only links inside the app are followed: a notification's link is a path such as '/dare/4'. */
export function appPath(link: string): string {
  return link.startsWith('/') && !link.startsWith('//') ? link : '/notifications';
}
