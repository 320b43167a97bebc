import type { DbOrTx } from '#server/db/client';
import { findSessionUser } from './repo';
import type { UserRow } from './user';

/**
 * The user of a live session (neither revoked nor expired) by its token's hash: the one question
 * the HTTP plugin and the chat socket both ask auth.
 */
export function sessionUser(db: DbOrTx, tokenHash: string, now: Date): Promise<UserRow | undefined> {
  return findSessionUser(db, tokenHash, now);
}
