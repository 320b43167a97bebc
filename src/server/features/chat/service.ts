import { eq } from 'drizzle-orm';
import { CHAT_LIMITS, CHAT_MESSAGES, type ChatMessage, chatTextSchema } from '../../../contract/chat';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
import { dares } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import type { RateLimiter } from '../../plugins/rate-limit';
import type { UserRow } from '../auth/repo';
import type { ChatBus } from './bus';
import { insertChatMessage, listChatMessages } from './repo';

export function createChatService({
  db,
  bus,
  clock,
  limiter,
}: {
  db: Db;
  bus: ChatBus;
  clock: Clock;
  limiter: RateLimiter;
}) {
  async function requireDare(dareId: number) {
    const [dare] = await db.select({ id: dares.id }).from(dares).where(eq(dares.id, dareId));
    if (!dare) throw notFound(CHAT_MESSAGES.dareNotFound);
  }

  /** Stored first, then published: a message anyone saw is one the history will show. */
  async function store(values: Parameters<typeof insertChatMessage>[1]): Promise<ChatMessage> {
    const message = await insertChatMessage(db, values);
    await bus.publish({ kind: 'message', message });
    return message;
  }

  return {
    history(room: { dareId: number | null; before?: number }) {
      return listChatMessages(db, { ...room, limit: CHAT_LIMITS.historyPage });
    },

    requireDare,

    async postUserMessage(user: UserRow, input: { message: string; dareId: number | null }) {
      const parsed = chatTextSchema.safeParse(input.message);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const hit = limiter.hit(`chat:${user.id}`, CHAT_LIMITS.ratePerWindow, CHAT_LIMITS.rateWindowMs);
      if (!hit.allowed) throw new AppError('RATE_LIMITED', CHAT_MESSAGES.rateLimited);
      if (input.dareId !== null) await requireDare(input.dareId);
      return store({
        dareId: input.dareId,
        userId: user.id,
        username: user.username,
        message: parsed.data,
        type: 'user',
        now: clock(),
      });
    },

    /** Announces an event in a dare's room (a pool addition, an approved submission, a winner). */
    async postSystemMessage(dareId: number, message: string): Promise<ChatMessage> {
      return store({
        dareId,
        userId: null,
        username: null,
        message: message.slice(0, CHAT_LIMITS.messageMax),
        type: 'system',
        now: clock(),
      });
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
