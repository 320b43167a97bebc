import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  CHAT_LIMITS,
  CHAT_MESSAGES,
  chatTextSchema,
  clientFrameSchema,
  type ServerFrame,
} from '#contract/chat';
import { TRY_AGAIN_LATER_CLOSE_CODE } from '#contract/chat-limits';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError } from '#server/errors';
import { sessionUser } from '#server/features/auth/sessions';
import { hashToken } from '#server/features/auth/tokens';
import type { UserRow } from '#server/features/auth/user';
import type { RateLimiter } from '#server/rate-limit/port';
import { CHAT_SOCKETS_PER_ADDRESS, RATE_LIMITS } from '#server/rate-limits';
import { backlogGuard } from './backlog';
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

/**
 * How long a socket speaks for its session without asking the database again. A logout reaches
 * every socket of the session at once (the bus's 'session-ended'); an expiry, or a session revoked
 * any other way, stops the socket speaking within this (decision 056).
 */
export const SESSION_RECHECK_MS = 10_000;

/** How long an open past the address's allowance waits for its 429. */
export const REFUSED_OPEN_HOLD_MS = 2_000;

const REFUSED_OPEN_BODY = JSON.stringify({ error: CHAT_MESSAGES.tooManySockets });
/** The whole answer to an open past the address's allowance. */
const REFUSED_OPEN_RESPONSE = [
  'HTTP/1.1 429 Too Many Requests',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(REFUSED_OPEN_BODY)}`,
  'Connection: close',
  '',
  REFUSED_OPEN_BODY,
].join('\r\n');

interface Options {
  db: Db;
  clock: Clock;
  chat: ChatService;
  hub: ChatHub;
  bus: ChatBus;
  limiter: RateLimiter;
  heartbeatMs: number;
  opensPerSecond: number;
  /**
   * Another feature's frames for a signed-in user's sockets (notifications): told when a socket
   * speaks for a user; the function it returns is called when it stops (sign-out, close).
   */
  onSignedIn?: (userId: number, send: (frame: ServerFrame) => void) => () => void;
}

/**
 * Counts events in fixed windows, in the socket itself: `take()` counts one and is true while
 * within `limit` per `windowMs`; `spent()` says, counting nothing, whether the window has none left.
 */
function windowBudget(limit: number, windowMs: number, now: () => number) {
  let used = 0;
  let resetAt = 0;
  const roll = (at: number) => {
    if (at < resetAt) return;
    used = 0;
    resetAt = at + windowMs;
  };
  return {
    take() {
      roll(now());
      used += 1;
      return used <= limit;
    },
    spent() {
      roll(now());
      return used >= limit;
    },
  };
}

/**
 * How long a socket closed for breaking the rules (1008) keeps its connection: it reads nothing
 * more meanwhile (a flooding client's frames in flight are never parsed), and its close frame has
 * long reached the client when the connection is dropped.
 */
const CUT_OFF_GRACE_MS = 100;

/**
 * Sessions as the database last said, shared by this instance's sockets: the sockets of one
 * account (50 per address, each reopened as often as it is closed) ask once per
 * SESSION_RECHECK_MS, and lookups of one token at the same moment share one query. A logout
 * forgets the session at once (`forget`, on the bus's 'session-ended').
 */
function sharedSessions(db: Db, clock: Clock) {
  const known = new Map<string, { user: Promise<UserRow | undefined>; checkedAt: number }>();
  const MAX_REMEMBERED = 10_000;
  return {
    lookUp(tokenHash: string): { user: Promise<UserRow | undefined>; checkedAt: number } {
      const at = clock().getTime();
      const seen = known.get(tokenHash);
      if (seen && at - seen.checkedAt < SESSION_RECHECK_MS && at >= seen.checkedAt) return seen;
      const entry = { user: sessionUser(db, tokenHash, clock()), checkedAt: at };
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(tokenHash, entry);
      // A failed lookup is not remembered.
      entry.user.catch(() => {
        if (known.get(tokenHash) === entry) known.delete(tokenHash);
      });
      return entry;
    },
    forget(tokenHash: string) {
      known.delete(tokenHash);
    },
    forgetStale() {
      const at = clock().getTime();
      for (const [tokenHash, entry] of known)
        if (at - entry.checkedAt >= SESSION_RECHECK_MS) known.delete(tokenHash);
    },
  };
}

/**
 * Chat messages per user over this instance's sockets, counted on arrival (the limit the service
 * counts per user again, across instances, before storing): the sockets of one account cannot
 * multiply its messages into lookups.
 */
function userMessageWindows() {
  const windows = new Map<number, { used: number; resetAt: number }>();
  return {
    /** Counts one message of `userId` (none for a socket not signed in yet: the socket's own count holds). */
    within(userId: number | undefined, at: number): boolean {
      if (userId === undefined) return true;
      let entry = windows.get(userId);
      if (!entry || at >= entry.resetAt) {
        entry = { used: 0, resetAt: at + CHAT_LIMITS.rateWindowMs };
        windows.set(userId, entry);
      }
      entry.used += 1;
      return entry.used <= CHAT_LIMITS.ratePerWindow;
    },
    /** Whether `userId` has no message left in its window, counting nothing. */
    spent(userId: number | undefined, at: number): boolean {
      if (userId === undefined) return false;
      const entry = windows.get(userId);
      return entry !== undefined && at < entry.resetAt && entry.used >= CHAT_LIMITS.ratePerWindow;
    },
    forgetEnded(at: number) {
      for (const [userId, entry] of windows) if (at >= entry.resetAt) windows.delete(userId);
    },
  };
}

/**
 * `/ws`: every socket is in the global room; `join`/`leave` follow a dare's room. Only an
 * authenticated socket may send, and who it is comes from the session token, never from the frame.
 */
export async function chatSocket(
  app: FastifyInstance,
  { db, clock, chat, hub, bus, limiter, heartbeatMs, opensPerSecond, onSignedIn }: Options,
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
  const messagesOfUser = userMessageWindows();
  const sessions = sharedSessions(db, clock);
  bus.subscribe((event) => {
    if (event.kind !== 'session-ended') return;
    sessions.forget(event.tokenHash);
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
    messagesOfUser.forgetEnded(clock().getTime());
    sessions.forgetStale();
    for (const [address, holders] of slotsByAddress)
      void limiter.renewSlots(slotKey(address), [...holders], socketSlots).catch(() => {});
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    for (const socket of sockets) socket.terminate();
  });

  /**
   * Past the address's allowance of opens the upgrade is refused before it is made (no handshake,
   * no socket), after a short hold: a client that opens again at once waits that long each time
   * instead of making the server refuse it as fast as it can ask.
   */
  async function refuseOpensPastAllowance(request: FastifyRequest, reply: FastifyReply) {
    const address = request.ip;
    const perSecond = await limiter
      .hit(`chat-opens-1s:${address}`, { ...RATE_LIMITS.chatOpensPerAddressPerSecond, limit: opensPerSecond })
      .catch(() => ({ allowed: true }));
    const perWindow = perSecond.allowed
      ? await limiter
          .hit(`chat-opens:${address}`, RATE_LIMITS.chatOpensPerAddress)
          .catch(() => ({ allowed: true }))
      : perSecond;
    if (perWindow.allowed) return;
    await new Promise((resolve) => setTimeout(resolve, REFUSED_OPEN_HOLD_MS).unref());
    const connection = rawConnection(request.raw);
    if (!connection) return reply.code(429).send({ error: CHAT_MESSAGES.tooManySockets });
    // Written as it is and the connection closed: a flood's thousands of refusals a minute skip the
    // reply hooks (caching, logging, security headers) meant for pages and API answers.
    reply.hijack();
    connection.end(REFUSED_OPEN_RESPONSE);
  }

  app.get(
    '/ws',
    { websocket: true, schema: { hide: true }, preValidation: refuseOpensPastAllowance },
    (socket, request) => {
      // The address as the proxies in TRUST_PROXY report it, like every per-address limit.
      const address = request.ip;
      const holder = `${instance}:${++socketSeq}`;
      /**
       * Who speaks: the session the socket authenticated with, until it ends, and its user as the
       * database last said (at `checkedAt`, on the app's clock).
       */
      let session: { tokenHash: string; user: UserRow; checkedAt: number } | null = null;
      const now = () => clock().getTime();
      // Frames that cost a database lookup (auth, join): a visitor needs only a few.
      const withinLookups = windowBudget(
        RATE_LIMITS.chatSocketLookups.limit,
        RATE_LIMITS.chatSocketLookups.windowMs,
        now,
      );
      const withinFrames = windowBudget(CHAT_LIMITS.framesPerWindow, CHAT_LIMITS.frameWindowMs, now);
      // The user's own limit, counted here on arrival for the socket and for its user over this
      // instance's sockets (and again in the service, across instances): a message past it is
      // refused before it waits for or costs anything, and told once per window, not once per frame.
      const withinMessages = windowBudget(CHAT_LIMITS.ratePerWindow, CHAT_LIMITS.rateWindowMs, now);
      let toldTooFastUntil = 0;
      /** A message past the limit is dropped; the socket is told once per window, not once per frame. */
      const tellTooFast = () => {
        if (now() < toldTooFastUntil) return;
        toldTooFastUntil = now() + CHAT_LIMITS.rateWindowMs;
        handle.send({ type: 'error', error: CHAT_MESSAGES.rateLimited });
      };
      let queued = 0;
      // The connection ws speaks on. Room-wide frames, framed once for the room (wire.ts), are
      // written to it as they are: ws's own writes are synchronous too (no compression is
      // negotiated, so its sender never queues), so frames from both never interleave or reorder.
      const incoming = rawConnection(request.raw);
      const connection = socket.extensions === '' ? incoming : null;
      /** Whether the socket may take another frame; one that fell too far behind is dropped (backlog.ts). */
      const withinBacklog = backlogGuard();
      const keepsUp = () => {
        if (withinBacklog(socket.bufferedAmount)) return true;
        socket.terminate();
        return false;
      };
      const handle = {
        rooms: new Set<string>(),
        send(frame: ServerFrame) {
          if (socket.readyState === socket.OPEN && keepsUp()) socket.send(JSON.stringify(frame));
        },
        sendFrames(frames: OutgoingFrames) {
          if (socket.readyState !== socket.OPEN || !keepsUp()) return;
          if (connection) {
            // A connection ws is closing takes no more writes: writing to it only builds an error.
            if (!connection.destroyed && !connection.writableEnded) connection.write(frames.wire());
          } else for (const text of frames.texts) socket.send(text);
        },
      };
      const fail = (error: unknown) => {
        const message = error instanceof AppError ? error.message : 'Something went wrong';
        if (!(error instanceof AppError)) app.log.error(error);
        handle.send({ type: 'error', error: message });
      };

      let detachUser: (() => void) | null = null;
      function setSession(next: typeof session) {
        if (session) {
          const ofSession = bySession.get(session.tokenHash);
          ofSession?.delete(signOut);
          if (ofSession?.size === 0) bySession.delete(session.tokenHash);
        }
        detachUser?.();
        detachUser = null;
        session = next;
        if (!next) return;
        detachUser = onSignedIn?.(next.user.id, handle.send) ?? null;
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

      // Past the address's open sockets the socket is closed (1013) before it costs anything; its
      // frames wait for the answer (the queue below starts with it).

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
      /**
       * Closes a socket that broke the rules (1008) and reads nothing more of it: a flooding
       * client's frames already on their way cost nothing, instead of being parsed only to be dropped.
       */
      const cutOff = (reason: string) => {
        socket.close(POLICY_VIOLATION, reason);
        if (!incoming) return;
        incoming.pause();
        setTimeout(() => socket.terminate(), CUT_OFF_GRACE_MS).unref();
      };
      socket.on('message', (data, isBinary) => {
        if (socket.readyState !== socket.OPEN) return;
        // Every frame counted on arrival, before it is read: a flood is cut off after a page's worth.
        if (!withinFrames.take()) return cutOff(CHAT_MESSAGES.tooManyRequests);
        let raw: unknown;
        try {
          if (isBinary) throw new Error('binary frame');
          raw = JSON.parse(data.toString());
        } catch {
          return cutOff(CHAT_MESSAGES.invalidFrame);
        }
        // Counted on arrival, before any queueing: a flood is cut off after a few lookups.
        const type = (raw as { type?: unknown } | null)?.type;
        if ((type === 'auth' || type === 'join') && !withinLookups.take()) {
          return cutOff(CHAT_MESSAGES.tooManyRequests);
        }
        if (type === 'chat_message') {
          // Past the limit a message is dropped unread (told once per window): a socket sending as
          // fast as it can costs a comparison per frame.
          if (withinMessages.spent() || messagesOfUser.spent(session?.user.id, now())) return tellTooFast();
          // A message that cannot be sent (blank, too long) is answered as such and not counted.
          if (
            chatTextSchema.safeParse((raw as { message?: unknown }).message).success &&
            !(withinMessages.take() && messagesOfUser.within(session?.user.id, now()))
          ) {
            return tellTooFast();
          }
        }
        // A socket whose frames wait faster than they are handled is not a page's.
        if (queued >= CHAT_LIMITS.maxQueuedFrames) return cutOff(CHAT_MESSAGES.tooManyRequests);
        queued += 1;
        // A message that came before the socket's session was known is counted for its user once
        // the session is (handle_): frames sent right behind an `auth` wait for it in the queue.
        const countedForUser = session !== null;
        queue = queue
          .then(() => handle_(raw, countedForUser))
          .catch(fail)
          .finally(() => {
            queued -= 1;
          });
      });
      void slot.then((taken) => {
        if (taken && socket.readyState === socket.OPEN) hub.join(handle, GLOBAL_ROOM);
      });

      /**
       * The session's user, asked of the database again once SESSION_RECHECK_MS have passed since
       * it last was: a session that expired or was revoked while the socket stayed open stops
       * speaking (a logout already signed it out through the bus). Undefined, the socket told
       * why, when it may not speak.
       */
      async function speaker(): Promise<UserRow | undefined> {
        const current = session;
        if (!current) {
          handle.send({ type: 'error', error: CHAT_MESSAGES.notAuthenticated });
          return undefined;
        }
        const at = now();
        if (at - current.checkedAt < SESSION_RECHECK_MS && at >= current.checkedAt) return current.user;
        const lookup = sessions.lookUp(current.tokenHash);
        const user = await lookup.user;
        if (session !== current) {
          // Signed out while the database answered.
          handle.send({ type: 'error', error: CHAT_MESSAGES.notAuthenticated });
          return undefined;
        }
        if (!user) {
          signOut(true);
          return undefined;
        }
        current.user = user;
        current.checkedAt = lookup.checkedAt;
        return user;
      }

      async function handle_(raw: unknown, countedForUser: boolean) {
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
            const lookup = tokenHash ? sessions.lookUp(tokenHash) : null;
            const user = lookup ? await lookup.user : undefined;
            setSession(user && lookup && tokenHash ? { tokenHash, user, checkedAt: lookup.checkedAt } : null);
            if (!user) handle.send({ type: 'error', error: CHAT_MESSAGES.authFailed });
            handle.send({ type: 'auth', ok: user !== undefined, username: user?.username });
            return;
          }
          case 'chat_message': {
            const user = await speaker();
            if (!user) return;
            if (!countedForUser && !messagesOfUser.within(user.id, now())) {
              tellTooFast();
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
    },
  );
}
