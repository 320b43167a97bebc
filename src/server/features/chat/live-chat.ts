import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { InstanceBus } from '#server/instance-bus';
import type { RateLimiter } from '#server/rate-limit/port';
import type { Announce } from './announce';
import { type ChatBus, chatBusOn } from './bus';
import { type ChatHub, createChatHub } from './hub';
import { createKnownDares } from './known-dares';
import { dareExists } from './repo';
import { type ChatService, createChatService } from './service';

export interface LiveChat {
  chat: ChatService;
  hub: ChatHub;
  bus: ChatBus;
  /** Posts a system message into a dare's room for the features that announce events. */
  announce: Announce;
  /** A session was logged out: its sockets, on every instance, stop speaking for it. */
  endSession(tokenHash: string): void;
  close(): void;
}

/**
 * The chat's moving parts: its channel of the bus between instances (the app opens the bus, which
 * is listening by then), this instance's hub of sockets, and the service that stores and sends
 * messages.
 */
export function openLiveChat({
  database,
  instanceBus,
  clock,
  limiter,
  heartbeatMs,
  log,
}: {
  database: Database;
  instanceBus: InstanceBus;
  clock: Clock;
  limiter: RateLimiter;
  heartbeatMs: number;
  log: FastifyBaseLogger;
}): LiveChat {
  const bus = chatBusOn(instanceBus);
  const hub = createChatHub(bus, {
    // Another instance's counts live three heartbeats without news, then count as gone.
    presenceTtlMs: heartbeatMs * 3,
    now: () => Date.now(),
  });
  const knownDares = createKnownDares(instanceBus, (dareId) => dareExists(database.db, dareId));
  const chat = createChatService({ db: database.db, bus, clock, limiter, knownDares });
  return {
    chat,
    hub,
    bus,
    announce(dareId, message) {
      chat
        .postSystemMessage(dareId, message)
        .catch((error) => log.warn({ err: error }, 'chat announcement failed'));
    },
    endSession(tokenHash) {
      bus
        .publish({ kind: 'session-ended', tokenHash })
        .catch((error) => log.warn({ err: error }, 'chat sign-out not published'));
    },
    close() {
      hub.close();
    },
  };
}
