import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import type { RateLimiter } from '../../plugins/rate-limit';
import type { Announce } from './announce';
import { type ChatBus, createLocalBus, createPostgresBus } from './bus';
import { createChatHub } from './hub';
import { chatRoutes } from './routes';
import { type ChatService, createChatService } from './service';

/**
 * The chat: history route, `/ws`, and the bus between instances — LISTEN/NOTIFY when the database
 * is a PostgreSQL server other instances can share, in-process otherwise.
 */
export async function registerChat(
  app: FastifyInstance,
  deps: AppDeps,
  limiter: RateLimiter,
  sessions: { onSessionEnded(listener: (tokenHash: string) => void): void },
): Promise<{ chat: ChatService; bus: ChatBus; announce: Announce }> {
  const { database, clock, config } = deps;
  const bus =
    database.kind === 'postgres' && database.pool
      ? createPostgresBus(database.pool, (error) =>
          app.log.warn({ err: error }, 'chat listener reconnecting'),
        )
      : createLocalBus();
  await bus.ready();
  const hub = createChatHub(bus, {
    // Another instance's counts live three heartbeats without news, then count as gone.
    presenceTtlMs: config.chatHeartbeatMs * 3,
    now: () => Date.now(),
  });
  const chat = createChatService({ db: database.db, bus, clock, limiter });
  app.addHook('onClose', async () => {
    hub.close();
    await bus.close();
  });
  await app.register(chatRoutes, {
    db: database.db,
    clock,
    chat,
    hub,
    bus,
    heartbeatMs: config.chatHeartbeatMs,
  });
  sessions.onSessionEnded((tokenHash) => {
    bus
      .publish({ kind: 'session-ended', tokenHash })
      .catch((error) => app.log.warn({ err: error }, 'chat sign-out not published'));
  });

  const announce: Announce = (dareId, message) => {
    chat
      .postSystemMessage(dareId, message)
      .catch((error) => app.log.warn({ err: error }, 'chat announcement failed'));
  };
  return { chat, bus, announce };
}
