import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { CHAT_MESSAGES, clientFrameSchema, type ServerFrame } from '#contract/chat';
import { TRY_AGAIN_LATER_CLOSE_CODE } from '#contract/chat-limits';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError } from '#server/errors';
import { sessionUser } from '#server/features/auth/sessions';
import { hashToken } from '#server/features/auth/tokens';
import type { RateLimiter } from '#server/rate-limit/port';
import { CHAT_SOCKETS_PER_ADDRESS, RATE_LIMITS } from '#server/rate-limits';
import type { ChatBus } from './bus';
import { type ChatHub, GLOBAL_ROOM, roomOf } from './hub';
import type { ChatService } from './service';
import type { OutgoingFrames } from './wire';

/**
 * The upgraded request's connection (what ws reads and writes); none for an injected socket
 * (`app.injectWS` in tests), which then gets every frame through ws.
 */
function rawConnection(request: IncomingMessage): Duplex | null {
  const connection = (request as { socket?: unknown }).socket;
  return connection instanceof Duplex && connection.writable ? connection : null;
}

/** RFC 6455 close codes. */
const POLICY_VIOLATION = 1008;

interface Options {
  db: Db;
  clock: Clock;
  chat: ChatService;
  hub: ChatHub;
  bus: ChatBus;
  limiter: RateLimiter;
  heartbeatMs: number;
}

/** Frames that cost a database lookup (auth, join), per connection: a visitor needs only a few. */
function lookupBudget(now: () => number) {
  let used = 0;
  let resetAt = 0;
  return () => {
    const at = now();
    if (at >= resetAt) {
      used = 0;
      resetAt = at + RATE_LIMITS.chatSocketLookups.windowMs;
    }
    used += 1;
    return used <= RATE_LIMITS.chatSocketLookups.limit;
  };
}

/**
 * `/ws`: every socket is in the global room; `join`/`leave` follow a dare's room. Only an
 * authenticated socket may send, and who it is comes from the session token, never from the frame.
 */
export async function chatSocket(
  app: FastifyInstance,
  { db, clock, chat, hub, bus, limiter, heartbeatMs }: Options,
) {
  const alive = new WeakMap<WebSocket, boolean>();
  const sockets = new Set<WebSocket>();
  /**
   * The slots this instance's sockets hold, per client address: each counts against the address's
   * allowance on every instance (rate-limit/, shared with REDIS_URL), renewed on every heartbeat so
   * a crashed instance's sockets stop counting after three heartbeats.
   */
  const instance = randomUUID();
  let socketSeq = 0;
  const slotsByAddress = new Map<string, Set<string>>();
  const socketSlots = { limit: CHAT_SOCKETS_PER_ADDRESS, leaseMs: heartbeatMs * 3 };
  const slotKey = (address: string) => `chat-sockets:${address}`;
  /** Each session's sockets on this instance, to sign them out when the session is logged out. */
  const bySession = new Map<string, Set<() => void>>();
  bus.subscribe((event) => {
    if (event.kind !== 'session-ended') return;
    for (const signOut of bySession.get(event.tokenHash) ?? []) signOut();
  });

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
    for (const [address, holders] of slotsByAddress)
      void limiter.renewSlots(slotKey(address), [...holders], socketSlots).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const socket of sockets) socket.terminate();
  });

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, request) => {
    // The address as the proxies in TRUST_PROXY report it, like every per-address limit.
    const address = request.ip;
    const holder = `${instance}:${++socketSeq}`;
    /** Who speaks: the session the socket authenticated with, until it ends. */
    let session: { tokenHash: string } | null = null;
    const withinBudget = lookupBudget(() => clock().getTime());
    // The connection ws speaks on. Room-wide frames, framed once for the room (wire.ts), are
    // written to it as they are: ws's own writes are synchronous too (no compression is
    // negotiated, so its sender never queues), so frames from both never interleave or reorder.
    const connection = socket.extensions === '' ? rawConnection(request.raw) : null;
    const handle = {
      rooms: new Set<string>(),
      send(frame: ServerFrame) {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      },
      sendFrames(frames: OutgoingFrames) {
        if (socket.readyState !== socket.OPEN) return;
        if (connection && !connection.destroyed) connection.write(frames.wire());
        else for (const text of frames.texts) socket.send(text);
      },
    };
    const fail = (error: unknown) => {
      const message = error instanceof AppError ? error.message : 'Something went wrong';
      if (!(error instanceof AppError)) app.log.error(error);
      handle.send({ type: 'error', error: message });
    };

    function setSession(next: typeof session) {
      if (session) {
        const ofSession = bySession.get(session.tokenHash);
        ofSession?.delete(signOut);
        if (ofSession?.size === 0) bySession.delete(session.tokenHash);
      }
      session = next;
      if (!next) return;
      let entry = bySession.get(next.tokenHash);
      if (!entry) {
        entry = new Set();
        bySession.set(next.tokenHash, entry);
      }
      entry.add(signOut);
    }
    /**
     * The session ended (logout, expiry): the socket goes on as a visitor's and is told so. The
     * error is sent only when the user tried to speak: after a logout the page closes the socket
     * itself and must not show 'Message not sent'.
     */
    function signOut(attemptedToSend = false) {
      if (!session) return;
      setSession(null);
      if (attemptedToSend) handle.send({ type: 'error', error: CHAT_MESSAGES.authFailed });
      handle.send({ type: 'auth', ok: false });
    }

    // Past the address's allowance the socket is closed before it costs anything; its frames wait
    // for the answer (the queue below starts with it).
    const slot = limiter.takeSlot(slotKey(address), holder, socketSlots).then(
      (taken) => {
        if (!taken) {
          socket.close(TRY_AGAIN_LATER_CLOSE_CODE, CHAT_MESSAGES.tooManySockets);
          return false;
        }
        if (socket.readyState !== socket.OPEN) {
          void limiter.freeSlot(slotKey(address), holder).catch(() => {});
          return false;
        }
        let holders = slotsByAddress.get(address);
        if (!holders) {
          holders = new Set();
          slotsByAddress.set(address, holders);
        }
        holders.add(holder);
        return true;
      },
      (error) => {
        app.log.warn({ err: error }, 'chat socket allowance not checked');
        return true;
      },
    );

    sockets.add(socket);
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('close', () => {
      sockets.delete(socket);
      setSession(null);
      hub.leaveAll(handle);
      const holders = slotsByAddress.get(address);
      if (holders?.delete(holder)) {
        if (holders.size === 0) slotsByAddress.delete(address);
        void limiter.freeSlot(slotKey(address), holder).catch(() => {});
      }
    });
    // Frames are handled one at a time, so a join is in place before the message after it.
    let queue: Promise<unknown> = slot;
    socket.on('message', (data, isBinary) => {
      if (socket.readyState !== socket.OPEN) return;
      let raw: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        raw = JSON.parse(data.toString());
      } catch {
        socket.close(POLICY_VIOLATION, CHAT_MESSAGES.invalidFrame);
        return;
      }
      // Counted on arrival, before any queueing: a flood is cut off after a few lookups.
      const type = (raw as { type?: unknown } | null)?.type;
      if ((type === 'auth' || type === 'join') && !withinBudget()) {
        socket.close(POLICY_VIOLATION, CHAT_MESSAGES.tooManyRequests);
        return;
      }
      queue = queue.then(() => handle_(raw)).catch(fail);
    });
    void slot.then((taken) => {
      if (taken && socket.readyState === socket.OPEN) hub.join(handle, GLOBAL_ROOM);
    });

    async function handle_(raw: unknown) {
      // A closed socket's queued frames cost nothing more (and must not put it back in a room).
      if (socket.readyState !== socket.OPEN) return;
      const parsed = clientFrameSchema.safeParse(raw);
      if (!parsed.success) {
        handle.send({ type: 'error', error: CHAT_MESSAGES.invalidFrame });
        return;
      }
      const frame = parsed.data;
      switch (frame.type) {
        case 'auth': {
          const tokenHash = frame.token ? hashToken(frame.token) : null;
          const user = tokenHash ? await sessionUser(db, tokenHash, clock()) : undefined;
          setSession(user && tokenHash ? { tokenHash } : null);
          if (!user) handle.send({ type: 'error', error: CHAT_MESSAGES.authFailed });
          handle.send({ type: 'auth', ok: user !== undefined, username: user?.username });
          return;
        }
        case 'chat_message': {
          if (!session) {
            handle.send({ type: 'error', error: CHAT_MESSAGES.notAuthenticated });
            return;
          }
          // Checked again for every message: a session logged out on another instance, or one
          // that expired while the socket stayed open, must not keep speaking.
          const user = await sessionUser(db, session.tokenHash, clock());
          if (!user) {
            signOut(true);
            return;
          }
          await chat.postUserMessage(user, { message: frame.message, dareId: frame.dareId ?? null });
          return;
        }
        case 'join': {
          if (handle.rooms.has(roomOf(frame.dareId))) return;
          // Per address, across its sockets and the instances: many sockets cannot multiply joins.
          const hit = await limiter.hit(`chat-joins:${address}`, RATE_LIMITS.chatJoinsPerAddress);
          if (!hit.allowed) {
            handle.send({ type: 'error', error: CHAT_MESSAGES.tooManyJoins });
            return;
          }
          await chat.requireDareToJoin(frame.dareId);
          if (socket.readyState === socket.OPEN) hub.join(handle, roomOf(frame.dareId));
          return;
        }
        case 'leave':
          hub.leave(handle, roomOf(frame.dareId));
          return;
      }
    }
  });
}
