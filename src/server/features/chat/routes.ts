import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import type { ServerFrame } from '#contract/chat';
import { CHAT_LIMITS, chatHistoryQuerySchema, chatHistoryResponseSchema } from '#contract/chat';
import { CHAT_MESSAGES, SERVICE_RESTART_CLOSE_CODE } from '#contract/chat-limits';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import type { RateLimiter } from '#server/rate-limit/port';
import type { ChatBus } from './bus';
import type { ChatHub } from './hub';
import type { ChatService } from './service';
import { chatSocket } from './socket';

/** How long a chat socket has to answer the server's close when it shuts down. */
export const CLOSE_GRACE_MS = 2_000;

export async function chatRoutes(
  app: FastifyInstance,
  options: {
    db: Db;
    clock: Clock;
    chat: ChatService;
    hub: ChatHub;
    bus: ChatBus;
    limiter: RateLimiter;
    heartbeatMs: number;
    /** Sockets one address may open in a second (RATE_LIMIT_CHAT_OPENS_PER_SECOND). */
    opensPerSecond: number;
    /** Frames of other features for a signed-in user's sockets (socket.ts). */
    onSignedIn?: (userId: number, send: (frame: ServerFrame) => void) => () => void;
  },
) {
  const { chat } = options;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/chat-messages',
    {
      schema: {
        tags: ['chat'],
        summary: `The latest ${CHAT_LIMITS.historyPage} messages of a room (global without dareId), oldest first`,
        querystring: chatHistoryQuerySchema,
        response: { 200: chatHistoryResponseSchema },
      },
    },
    async (request) => chat.history({ dareId: request.query.dareId ?? null, before: request.query.before }),
  );

  await app.register(fastifyWebsocket, {
    options: { maxPayload: CHAT_LIMITS.maxFrameBytes },
    errorHandler: socketErrorHandler,
    // Shutting down: every socket hears 'restarting' and reconnects, to another instance if any.
    // One that has not answered the close within CLOSE_GRACE_MS (a client that stopped reading)
    // is cut: the server's close waits for every connection, and ws would give it 30 s.
    async preClose(this: FastifyInstance) {
      const clients = this.websocketServer.clients;
      for (const socket of clients) socket.close(SERVICE_RESTART_CLOSE_CODE, CHAT_MESSAGES.serverRestarting);
      if (clients.size > 0)
        setTimeout(() => {
          for (const socket of clients) socket.terminate();
        }, CLOSE_GRACE_MS).unref();
      this.websocketServer.close();
    },
  });
  await app.register(chatSocket, options);
}

/**
 * What a client did wrong on the wire (a frame over the size limit, a bad opcode: `ws` names these
 * WS_ERR_*) closes only its socket and is not the server's error: logged at info, without a stack.
 * Anything else is a bug here, logged as an error.
 */
function socketErrorHandler(error: Error, socket: WebSocket, request: FastifyRequest) {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('WS_ERR_'))
    request.log.info({ code, reason: error.message }, 'chat socket closed: the client broke the protocol');
  else request.log.error(error);
  socket.terminate();
}
