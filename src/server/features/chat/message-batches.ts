import DataLoader from 'dataloader';
import type { ChatMessage } from '#contract/chat';
import { CHAT_MESSAGES } from '#contract/chat';
import type { Db } from '#server/db/client';
import { violatedForeignKey } from '#server/db/errors';
import { notFound } from '#server/errors';
import { insertChatMessages, type NewChatMessage } from './repo';

/** The foreign key a message's dare must satisfy (migration 0000). */
const DARE_FOREIGN_KEY = 'chat_messages_dare_id_dares_id_fk';
/** At most this many messages in one statement. */
const MAX_BATCH = 500;

/**
 * Messages that arrive in one turn of the event loop (a crowd talking at once: many sockets'
 * frames are read in one turn) are stored by one INSERT. Each insert is a commit: on the embedded
 * database one costs ~1.5 ms of the event loop and 200 cost 10 ms together, so 40 accounts at
 * their limit no longer queue 300 ms of commits ahead of every request (issue 34).
 *
 * A batch that fails is stored message by message, so one message's fault (its dare deleted a
 * moment ago) is that message's alone.
 */
export function chatMessageBatches(db: Db) {
  async function storeOne(value: NewChatMessage): Promise<ChatMessage | Error> {
    try {
      const [message] = await insertChatMessages(db, [value]);
      return message!;
    } catch (error) {
      if (violatedForeignKey(error) === DARE_FOREIGN_KEY) return notFound(CHAT_MESSAGES.dareNotFound);
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  const loader = new DataLoader<NewChatMessage, ChatMessage>(
    async (values) => {
      if (values.length === 1) return [await storeOne(values[0]!)];
      try {
        return await insertChatMessages(db, values);
      } catch {
        const stored: (ChatMessage | Error)[] = [];
        for (const value of values) stored.push(await storeOne(value));
        return stored;
      }
    },
    // Every message is its own: nothing is cached, and a batch gathers a whole turn's frames.
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) },
  );
  return { store: (value: NewChatMessage) => loader.load(value) };
}
