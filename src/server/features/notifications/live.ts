import type { NotificationFrame } from '#contract/notifications';
import type { Db } from '#server/db/client';
import type { InstanceBus } from '#server/instance-bus';
import { toItem } from './item';
import { notificationsInRange } from './repo';

type Send = (frame: NotificationFrame) => void;

/**
 * Each user's open `/ws` sockets on this instance. The database announces every committed batch of
 * notifications (their id range) to every instance (instance-bus.ts); each instance reads the
 * batch's rows of the users it has sockets for, once, and sends each to those sockets.
 */
export function createLiveNotifications(db: Db, bus: InstanceBus, warn: (error: unknown) => void) {
  const sockets = new Map<number, Set<Send>>();
  bus.subscribe('darepool_notifications', (payload) => {
    const { from, to } = payload as { from?: unknown; to?: unknown };
    if (typeof from !== 'number' || typeof to !== 'number' || sockets.size === 0) return;
    notificationsInRange(db, from, to, [...sockets.keys()])
      .then((rows) => {
        for (const row of rows) {
          const frame: NotificationFrame = { type: 'notification', notification: toItem(row) };
          for (const send of sockets.get(row.userId) ?? []) send(frame);
        }
      })
      .catch(warn);
  });
  return {
    /** A socket signed in as `userId`; the returned function forgets it (sign-out, close). */
    attach(userId: number, send: Send): () => void {
      let set = sockets.get(userId);
      if (!set) {
        set = new Set();
        sockets.set(userId, set);
      }
      set.add(send);
      return () => {
        const current = sockets.get(userId);
        current?.delete(send);
        if (current?.size === 0) sockets.delete(userId);
      };
    },
  };
}
export type LiveNotifications = ReturnType<typeof createLiveNotifications>;
