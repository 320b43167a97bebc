import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import { type ChatMessage, SYSTEM_SENDER } from '#contract/chat';
import type { DbOrTx } from '#server/db/client';
import { chatMessages, dares, users } from '#server/db/schema';

const columns = {
  id: chatMessages.id,
  dareId: chatMessages.dareId,
  userId: chatMessages.userId,
  username: users.username,
  message: chatMessages.message,
  messageType: chatMessages.messageType,
  createdAt: chatMessages.createdAt,
};

type Row = {
  id: number;
  dareId: number | null;
  userId: number | null;
  username: string | null;
  message: string;
  messageType: string;
  createdAt: Date;
};

function toMessage(row: Row): ChatMessage {
  return {
    id: row.id,
    dareId: row.dareId,
    userId: row.userId,
    // A deleted user's messages stay, without a name.
    username: row.username ?? (row.messageType === 'system' ? SYSTEM_SENDER : 'Unknown User'),
    message: row.message,
    messageType: row.messageType === 'system' ? 'system' : 'user',
    createdAt: row.createdAt.toISOString(),
  };
}

export interface NewChatMessage {
  dareId: number | null;
  userId: number | null;
  username: string | null;
  message: string;
  type: 'user' | 'system';
  now: Date;
}

/**
 * Stores messages in one statement, answered in the order given: PostgreSQL returns an
 * `INSERT … VALUES … RETURNING`'s rows in the order of its VALUES, and takes their ids from the
 * sequence in that order.
 */
export async function insertChatMessages(
  db: DbOrTx,
  values: readonly NewChatMessage[],
): Promise<ChatMessage[]> {
  const rows = await db
    .insert(chatMessages)
    .values(
      values.map((value) => ({
        dareId: value.dareId,
        userId: value.userId,
        message: value.message,
        messageType: value.type,
        createdAt: value.now,
      })),
    )
    .returning();
  if (rows.length !== values.length)
    throw new Error(`stored ${rows.length} of ${values.length} chat messages`);
  return rows.map((row, i) => toMessage({ ...row, username: values[i]!.username }));
}

/** The latest `limit` messages of a room (before `before` when given), oldest first. */
export async function listChatMessages(
  db: DbOrTx,
  room: { dareId: number | null; before?: number; limit: number },
): Promise<ChatMessage[]> {
  const rows = await db
    .select(columns)
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.userId))
    .where(
      and(
        room.dareId === null ? isNull(chatMessages.dareId) : eq(chatMessages.dareId, room.dareId),
        room.before ? lt(chatMessages.id, room.before) : undefined,
      ),
    )
    .orderBy(desc(chatMessages.id))
    .limit(room.limit);
  return rows.reverse().map(toMessage);
}

export async function dareExists(db: DbOrTx, dareId: number): Promise<boolean> {
  const [row] = await db.select({ id: dares.id }).from(dares).where(eq(dares.id, dareId));
  return row !== undefined;
}

/** The name the chat shows for a user, if they exist. */
export async function findUsername(db: DbOrTx, userId: number): Promise<string | undefined> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return row?.username;
}
