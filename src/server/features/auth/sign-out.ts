import type { AuthServiceDeps } from './auth-deps';
import { revokeSession } from './repo';

/** Who is told after a logout, e.g. the chat, which signs that session's open sockets out. */
export type SessionEndedListeners = Set<(tokenHash: string) => void>;

export async function logout(
  { db, clock }: AuthServiceDeps,
  listeners: SessionEndedListeners,
  tokenHash: string,
) {
  await revokeSession(db, tokenHash, clock());
  for (const listener of listeners) listener(tokenHash);
}
