import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CHAT_MESSAGES } from '#contract/chat';
import type { Db } from '#server/db/client';
import { chatMessages, dares } from '#server/db/schema';
import { AppError } from '#server/errors';
import { chatMessageBatches } from '#server/features/chat/message-batches';
import { setupApiSuite } from './helpers/suite';

const {
  ctx,
  actors: { ann },
} = setupApiSuite({ actors: { ann: {} } });

/** The database, counting the INSERT statements made on it. */
function countingInserts(db: Db) {
  const counted = { inserts: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'insert') counted.inserts += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { db: proxy, counted };
}

const message = (text: string, dareId: number | null = null) => ({
  dareId,
  userId: ann.id,
  username: ann.username,
  message: text,
  type: 'user' as const,
  now: new Date(),
});

async function noDareId(): Promise<number> {
  const [latest] = await ctx.database.db
    .select({ id: dares.id })
    .from(dares)
    .orderBy(desc(dares.id))
    .limit(1);
  return (latest?.id ?? 0) + 1_000;
}

describe('chat messages stored in batches', () => {
  it('stores the messages of one turn with one INSERT, each answered with its own row, in order', async () => {
    const { db, counted } = countingInserts(ctx.database.db);
    const batches = chatMessageBatches(db);
    const texts = Array.from({ length: 50 }, (_, i) => `batched ${i}`);
    const stored = await Promise.all(texts.map((text) => batches.store(message(text))));
    expect(counted.inserts).toBe(1);
    expect(stored.map((m) => m.message)).toEqual(texts);
    const ids = stored.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const rows = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.userId, ann.id));
    for (const m of stored) expect(rows.find((row) => row.id === m.id)?.message).toBe(m.message);
  });

  it('refuses only the message whose dare is gone: the others of its batch are stored', async () => {
    const { db, counted } = countingInserts(ctx.database.db);
    const batches = chatMessageBatches(db);
    const missing = await noDareId();
    const results = await Promise.allSettled([
      batches.store(message('before')),
      batches.store(message('to a dare that is gone', missing)),
      batches.store(message('after')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (results[1] as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.message).toBe(CHAT_MESSAGES.dareNotFound);
    // The batch, then each message on its own.
    expect(counted.inserts).toBe(4);
    const rows = await ctx.database.db.select().from(chatMessages).where(eq(chatMessages.dareId, missing));
    expect(rows).toEqual([]);
  });
});
