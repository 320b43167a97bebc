import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { CHAT_MESSAGES, clientFrameSchema, type ServerFrame } from '../../../contract/chat';
import type { Clock } from '../../app';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { findSessionUser, type UserRow } from '../auth/repo';
import { hashToken } from '../auth/tokens';
import { type ChatHub, GLOBAL_ROOM, roomOf } from './hub';
import type { ChatService } from './service';

/** RFC 6455 close codes. */
const POLICY_VIOLATION = 1008;

interface Options {
  db: Db;
  clock: Clock;
  chat: ChatService;
  hub: ChatHub;
  heartbeatMs: number;
}

/**
 * `/ws`: every socket is in the global room; `join`/`leave` follow a dare's room. Only an
 * authenticated socket may send, and who it is comes from the session token, never from the frame.
 */
export async function chatSocket(app: FastifyInstance, { db, clock, chat, hub, heartbeatMs }: Options) {
  const alive = new WeakMap<WebSocket, boolean>();
  const sockets = new Set<WebSocket>();

  // Heartbeat: a socket that did not answer the previous ping is gone (a closed laptop, a
  // dropped network); terminating it frees its rooms and corrects the online counts.
  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (!alive.get(socket)) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
    hub.refreshPresence();
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const socket of sockets) socket.terminate();
  });

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => {
    let user: UserRow | null = null;
    const handle = {
      rooms: new Set<string>(),
      send(frame: ServerFrame) {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      },
    };
    const fail = (error: unknown) => {
      const message = error instanceof AppError ? error.message : 'Something went wrong';
      if (!(error instanceof AppError)) app.log.error(error);
      handle.send({ type: 'error', error: message });
    };

    sockets.add(socket);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('close', () => {
      sockets.delete(socket);
      hub.leaveAll(handle);
    });
    // Frames are handled one at a time, so a join is in place before the message after it.
    let queue = Promise.resolve();
    socket.on('message', (data, isBinary) => {
      let raw: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        raw = JSON.parse(data.toString());
      } catch {
        socket.close(POLICY_VIOLATION, CHAT_MESSAGES.invalidFrame);
        return;
      }
      queue = queue.then(() => handle_(raw)).catch(fail);
    });
    hub.join(handle, GLOBAL_ROOM);

    async function handle_(raw: unknown) {
      const parsed = clientFrameSchema.safeParse(raw);
      if (!parsed.success) {
        handle.send({ type: 'error', error: CHAT_MESSAGES.invalidFrame });
        return;
      }
      const frame = parsed.data;
      switch (frame.type) {
        case 'auth': {
          const found = frame.token ? await findSessionUser(db, hashToken(frame.token), clock()) : undefined;
          user = found ?? null;
          if (!user) handle.send({ type: 'error', error: CHAT_MESSAGES.authFailed });
          handle.send({ type: 'auth', ok: user !== null, username: user?.username });
          return;
        }
        case 'chat_message': {
          if (!user) {
            handle.send({ type: 'error', error: CHAT_MESSAGES.notAuthenticated });
            return;
          }
          await chat.postUserMessage(user, { message: frame.message, dareId: frame.dareId ?? null });
          return;
        }
        case 'join':
          await chat.requireDare(frame.dareId);
          hub.join(handle, roomOf(frame.dareId));
          return;
        case 'leave':
          hub.leave(handle, roomOf(frame.dareId));
          return;
      }
    }
  });
}
