import type { NotificationItem, NotificationKind } from '#contract/notifications';
import type { NotificationRow } from './repo';

export function toItem(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    dareId: row.dareId,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: new Date(row.createdAt).toISOString(),
    readAt: row.readAt ? new Date(row.readAt).toISOString() : null,
  };
}
