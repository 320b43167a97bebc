import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CHAT_LIMITS, chatHistoryQuerySchema, chatHistoryResponseSchema } from '../../../contract/chat';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
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
  });
  await app.register(chatSocket, options);
}
