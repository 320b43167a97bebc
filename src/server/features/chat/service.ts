import { CHAT_LIMITS, CHAT_MESSAGES, type ChatMessage, chatTextSchema } from '#contract/chat';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import type { RateLimiter } from '#server/rate-limit/port';
import { RATE_LIMITS } from '#server/rate-limits';
import type { ChatBus } from './bus';
import type { KnownDares } from './known-dares';
import { chatMessageBatches } from './message-batches';
import { dareExists, listChatMessages, type NewChatMessage } from './repo';

export function createChatService({
  db,
  bus,
  clock,
  limiter,
  // Without one (the demo seed, which never joins a room), every question goes to the database.
  knownDares = { exists: (dareId) => dareExists(db, dareId) },
}: {
  db: Db;
  bus: ChatBus;
  clock: Clock;
  limiter: RateLimiter;
  knownDares?: Pick<KnownDares, 'exists'>;
}) {
  const batches = chatMessageBatches(db);

  /**
   * Stored first, then published: a message anyone saw is one the history will show. A message
   * naming a dare deleted a moment ago is refused by the database itself (its foreign key).
   */
  async function store(values: NewChatMessage): Promise<ChatMessage> {
    const message = await batches.store(values);
    await bus.publish({ kind: 'message', message });
    return message;
  }

  return {
    history(room: { dareId: number | null; before?: number }) {
      return listChatMessages(db, { ...room, limit: CHAT_LIMITS.historyPage });
    },

    /**
     * A room to join must be a dare's: answered from memory (known-dares.ts), since every page
     * opening a dare's chat asks, and a crowd (or a flood) asks at once.
     */
    async requireDareToJoin(dareId: number) {
      if (!(await knownDares.exists(dareId))) throw notFound(CHAT_MESSAGES.dareNotFound);
    },

    async postUserMessage(user: UserRow, input: { message: string; dareId: number | null }) {
      const parsed = chatTextSchema.safeParse(input.message);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const hit = await limiter.hit(`chat:${user.id}`, RATE_LIMITS.chatMessages);
      if (!hit.allowed) throw new AppError('RATE_LIMITED', CHAT_MESSAGES.rateLimited);
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
