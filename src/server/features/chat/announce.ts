import type { Db } from '#server/db/client';
import { findUsername } from './repo';

/**
 * Posts a system message into a dare's room. Fire and forget: the event it announces (a pool
 * addition, an approval, a winner) has already happened and must not fail because of the chat.
 */
export type Announce = (dareId: number, message: string) => void;

export const noAnnouncements: Announce = () => {};

/** Announces an event about a user, named as the chat names them. */
export function announceAboutUser(
  db: Db,
  announce: Announce,
  dareId: number,
  userId: number,
  text: (username: string) => string,
): void {
  void findUsername(db, userId)
    .then((username) => announce(dareId, text(username ?? 'Someone')))
    .catch(() => {});
}
