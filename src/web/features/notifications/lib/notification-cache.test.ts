import { describe, expect, it } from 'vitest';
import type { NotificationItem, NotificationList } from '#contract/notifications';
import { appPath, markPageRead, prependNotification, unreadLabel } from './notification-cache';

const item = (id: number, readAt: string | null = null): NotificationItem => ({
  id,
  kind: 'winner-proposed',
  dareId: 4,
  title: `Notification ${id}`,
  body: 'body',
  link: '/dare/4',
  createdAt: '2026-11-29T08:00:00.000Z',
  readAt,
});

describe('prependNotification', () => {
  it('puts a new notification first and counts it unread once', () => {
    const page: NotificationList = { items: [item(2), item(1, 'x')], unread: 1 };
    const next = prependNotification(page, item(3))!;
    expect(next.items.map((n) => n.id)).toEqual([3, 2, 1]);
    expect(next.unread).toBe(2);
    expect(prependNotification(next, item(3))).toBe(next);
  });

  it('leaves an unfetched list alone (the first read brings it)', () => {
    expect(prependNotification(undefined, item(1))).toBeUndefined();
  });
});

describe('markPageRead', () => {
  it('marks the named ids read and takes the server count', () => {
    const page: NotificationList = { items: [item(3), item(2), item(1, 'before')], unread: 2 };
    const next = markPageRead(page, [2], 'now', 1)!;
    expect(next.items.map((n) => n.readAt)).toEqual([null, 'now', 'before']);
    expect(next.unread).toBe(1);
  });

  it('marks every item read when no ids are named', () => {
    const page: NotificationList = { items: [item(3), item(2)], unread: 7 };
    const next = markPageRead(page, undefined, 'now', 0)!;
    expect(next.items.every((n) => n.readAt === 'now')).toBe(true);
    expect(next.unread).toBe(0);
  });
});

describe('unreadLabel', () => {
  it('shows nothing at zero and caps at 99+', () => {
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(5)).toBe('5');
    expect(unreadLabel(100)).toBe('99+');
  });
});

describe('appPath', () => {
  it('follows app paths only', () => {
    expect(appPath('/dare/4')).toBe('/dare/4');
    expect(appPath('//evil.example/x')).toBe('/notifications');
    expect(appPath('https://evil.example')).toBe('/notifications');
  });
});
