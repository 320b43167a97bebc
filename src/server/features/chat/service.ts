import { CHAT_LIMITS, CHAT_MESSAGES, type ChatMessage, chatTextSchema } from '#contract/chat';
import type { Clock } from '#server/deps';
import type { UserRow } from '#server/features/auth/user';
import type { Db } from '../../db/client';
import { AppError, badRequest, notFound } from '../../errors';
import type { RateLimiter } from '../../rate-limit/port';
import { RATE_LIMITS } from '../../rate-limits';
import type { ChatBus } from './bus';
import { dareExists, insertChatMessage, listChatMessages } from './repo';

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
    if (!(await dareExists(db, dareId))) throw notFound(CHAT_MESSAGES.dareNotFound);
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
      const hit = await limiter.hit(`chat:${user.id}`, RATE_LIMITS.chatMessages);
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
