import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CHAT_LIMITS, chatHistoryQuerySchema, chatHistoryResponseSchema } from '#contract/chat';
import { CHAT_MESSAGES, SERVICE_RESTART_CLOSE_CODE } from '#contract/chat-limits';
import type { Db } from '../../db/client';
import type { Clock } from '../../deps';
import type { ChatBus } from './bus';
import type { ChatHub } from './hub';
import type { ChatService } from './service';
import { chatSocket } from './socket';

export async function chatRoutes(
  app: FastifyInstance,
  options: { db: Db; clock: Clock; chat: ChatService; hub: ChatHub; bus: ChatBus; heartbeatMs: number },
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
    // Shutting down: every socket hears 'restarting' and reconnects, to another instance if any.
    async preClose(this: FastifyInstance) {
      for (const socket of this.websocketServer.clients)
        socket.close(SERVICE_RESTART_CLOSE_CODE, CHAT_MESSAGES.serverRestarting);
      this.websocketServer.close();
    },
  });
  await app.register(chatSocket, options);
}
