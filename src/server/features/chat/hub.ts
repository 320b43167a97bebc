import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '#contract/chat';
import type { ChatBus, ChatEvent } from './bus';
import { type OutgoingFrames, outgoingFrames } from './wire';

/** The global room's key; a dare's room is its id. */
export const GLOBAL_ROOM = 'global';
export const roomOf = (dareId: number | null): string => (dareId === null ? GLOBAL_ROOM : String(dareId));
const dareIdOf = (room: string): number | null => (room === GLOBAL_ROOM ? null : Number(room));

/**
 * How long after a flush began room-wide frames collect before the next: a burst's frames share
 * each socket's write, while a frame that finds the hub idle goes out at once, in the event loop's
 * next turn (decisions 076, 083).
 */
export const FAN_OUT_WINDOW_MS = 10;

/** How long one turn of the event loop writes room frames before it lets requests run. */
export const WRITE_SLICE_MS = 5;
/** Sockets written between two reads of the clock. */
export const SOCKETS_PER_CLOCK_READ = 32;

/**
 * A room's changed online count goes out at once, then at most once per interval with the latest
 * total: while a crowd arrives the count changes with every join on every instance, and each
 * announcement is a write to every socket of the room (decision 039).
 */
export const PRESENCE_INTERVAL_MS = 1000;

/** Frames for a room's members as they were when the frames were cut; `next` is the first not written yet. */
interface Batch {
  room: string;
  frames: OutgoingFrames;
  members: ChatSocketHandle[];
  next: number;
}

/** One open socket as the hub sees it. */
export interface ChatSocketHandle {
  send(frame: ServerFrame): void;
  /** Room-wide frames, serialized and framed once for every socket of the room (wire.ts). */
  sendFrames(frames: OutgoingFrames): void;
  rooms: Set<string>;
}

/**
 * This instance's sockets, grouped by room, and the online counts of every instance. Messages
 * and presence arrive through the bus (our own included), so one path serves one or many
 * instances.
 */
export function createChatHub(
  bus: ChatBus,
  options: {
    presenceTtlMs: number;
    now: () => number;
    presenceIntervalMs?: number;
    /** FAN_OUT_WINDOW_MS unless a test needs a window no stalled machine overruns. */
    fanOutWindowMs?: number;
    /** WRITE_SLICE_MS unless a test needs each turn's share of the writes to be predictable. */
    writeSliceMs?: number;
  },
) {
  const presenceIntervalMs = options.presenceIntervalMs ?? PRESENCE_INTERVAL_MS;
  const fanOutWindowMs = options.fanOutWindowMs ?? FAN_OUT_WINDOW_MS;
  const writeSliceMs = options.writeSliceMs ?? WRITE_SLICE_MS;
  const instance = randomUUID();
  const rooms = new Map<string, Set<ChatSocketHandle>>();
  const remote = new Map<string, { rooms: Record<string, number>; seenAt: number }>();
  /** What this instance's sockets in each room were last told; a room whose total did not change hears nothing. */
  const announced = new Map<string, number>();
  let presenceTimer: NodeJS.Timeout | null = null;
  /** When counts were last announced (performance.now: the throttle must not follow a test's clock). */
  let announcedAt = Number.NEGATIVE_INFINITY;
  let announceTimer: NodeJS.Timeout | null = null;

  const localCounts = (): Record<string, number> =>
    Object.fromEntries([...rooms].map(([room, sockets]) => [room, sockets.size]));

  function online(room: string): number {
    const cutoff = options.now() - options.presenceTtlMs;
    let total = 0;
    for (const [id, entry] of remote) {
      if (id !== instance && entry.seenAt < cutoff) {
        remote.delete(id);
        continue;
      }
      total += entry.rooms[room] ?? 0;
    }
    return total;
  }

  /**
   * A room-wide frame that finds the hub idle (no flush begun in the last FAN_OUT_WINDOW_MS) goes
   * out in the event loop's next turn (setImmediate: frames that arrive together, such as one bus
   * read's news, still share one write), so a single message waits for nothing. Frames that arrive
   * within FAN_OUT_WINDOW_MS of a flush's start wait for that window's end and go out together, and
   * frames that arrive while a flush is still writing join its writes (cutBatch): the messages of a
   * burst (a crowd talking at once, news from several instances) cost each socket one write, not one
   * per message. Each write is a system call per socket; at thousands of sockets those, on the
   * server and on every reader, were nearly all of a message's cost (decisions 039, 076, 083).
   */
  const pending = new Map<string, string[]>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushImmediate: NodeJS.Immediate | null = null;
  /**
   * Room batches cut from `pending`, each with the room's members at the moment it was cut, written
   * in order by `writeBatches`: a socket gets a room's frames in the order they were sent, and a
   * socket that joins later gets none of what was sent before it joined.
   */
  const batches: Batch[] = [];
  let writing: NodeJS.Immediate | null = null;

  /**
   * Makes the room's pending frames a batch for its members of this moment. Sockets of the room
   * still waiting in a batch being written get the old frames and the new in one write (the old
   * first), so each socket has at most one unwritten batch per room: a burst arriving during a long
   * fan-out costs each of them one system call, not one per message or per cut.
   */
  function cutBatch(room: string) {
    const texts = pending.get(room);
    if (!texts) return;
    pending.delete(room);
    const members = rooms.get(room);
    if (!members || members.size === 0) return;
    const cut: Batch[] = [];
    const merged = new Set<ChatSocketHandle>();
    for (const batch of batches) {
      if (batch.room !== room || batch.next >= batch.members.length) continue;
      const unwritten = batch.members.splice(batch.next);
      const stay = unwritten.filter((socket) => members.has(socket));
      // A socket that left the room still gets what was sent while it was in it, and no more.
      const left = unwritten.filter((socket) => !members.has(socket));
      if (left.length > 0) cut.push({ room, frames: batch.frames, members: left, next: 0 });
      if (stay.length === 0) continue;
      cut.push({ room, frames: outgoingFrames([...batch.frames.texts, ...texts]), members: stay, next: 0 });
      for (const socket of stay) merged.add(socket);
    }
    const rest = merged.size === 0 ? [...members] : [...members].filter((socket) => !merged.has(socket));
    if (rest.length > 0) cut.push({ room, frames: outgoingFrames(texts), members: rest, next: 0 });
    batches.push(...cut);
  }

  /** When the last flush began: the window of frames that share the next one starts there. */
  let lastFlushStartedAt = Number.NEGATIVE_INFINITY;

  /**
   * Writes the batches for at most WRITE_SLICE_MS, then yields to the event loop and goes on in its
   * next turn: a write is a system call per socket, and 2,000 sockets' writes in one go held every
   * request behind them for 100 ms and more (issue 34). The slices are all the room requests need:
   * no pause follows a flush (decision 083).
   */
  function writeBatches() {
    if (!writing) lastFlushStartedAt = performance.now();
    writing = null;
    // Frames that arrived since the last slice join the writes still to be made.
    for (const room of [...pending.keys()]) cutBatch(room);
    const started = performance.now();
    const until = started + writeSliceMs;
    let written = 0;
    while (batches.length > 0) {
      const batch = batches[0]!;
      while (batch.next < batch.members.length) {
        batch.members[batch.next]!.sendFrames(batch.frames);
        batch.next += 1;
        written += 1;
        if (written % SOCKETS_PER_CLOCK_READ === 0 && performance.now() >= until) {
          writing = setImmediate(writeBatches);
          return;
        }
      }
      batches.shift();
    }
  }

  function flush() {
    flushTimer = null;
    flushImmediate = null;
    for (const room of [...pending.keys()]) cutBatch(room);
    if (!writing && batches.length > 0) writeBatches();
  }

  function scheduleFlush() {
    if (flushTimer || flushImmediate || writing) return;
    const wait = lastFlushStartedAt + fanOutWindowMs - performance.now();
    if (wait <= 0) flushImmediate = setImmediate(flush);
    else flushTimer = setTimeout(flush, wait);
  }

  function broadcast(room: string, frame: ServerFrame) {
    if (!rooms.get(room)?.size) return;
    const text = JSON.stringify(frame);
    const texts = pending.get(room);
    if (texts) texts.push(text);
    else pending.set(room, [text]);
    scheduleFlush();
  }

  /**
   * Only rooms whose total changed: a join in a dare's room must not re-send the global room's
   * unchanged count to every socket (with many sockets, that was most of a join's cost).
   */
  function announcePresence() {
    announcedAt = performance.now();
    for (const room of announced.keys()) if (!rooms.has(room)) announced.delete(room);
    for (const room of rooms.keys()) {
      const count = online(room);
      if (announced.get(room) === count) continue;
      announced.set(room, count);
      broadcast(room, { type: 'presence', dareId: dareIdOf(room), online: count });
    }
  }

  /** At once when the last announcement is an interval old, else once at the interval's end. */
  function scheduleAnnouncement() {
    if (announceTimer) return;
    const wait = announcedAt + presenceIntervalMs - performance.now();
    if (wait <= 0) {
      announcePresence();
      return;
    }
    announceTimer = setTimeout(() => {
      announceTimer = null;
      announcePresence();
    }, wait);
  }

  /** Counts change in bursts (a page opens several rooms): one presence event per burst. */
  function publishPresence() {
    if (presenceTimer) return;
    presenceTimer = setTimeout(() => {
      presenceTimer = null;
      void bus.publish({ kind: 'presence', instance, rooms: localCounts() }).catch(() => {});
    }, 50);
  }

  bus.subscribe((event: ChatEvent) => {
    if (event.kind === 'message') {
      broadcast(roomOf(event.message.dareId), { type: 'chat_message', message: event.message });
      return;
    }
    if (event.kind !== 'presence') return;
    remote.set(event.instance, { rooms: event.rooms, seenAt: options.now() });
    scheduleAnnouncement();
  });

  return {
    join(socket: ChatSocketHandle, room: string) {
      if (socket.rooms.has(room)) return;
      // What the room was sent before this join goes to its members of that moment only.
      cutBatch(room);
      if (!writing && batches.length > 0) writeBatches();
      socket.rooms.add(room);
      let members = rooms.get(room);
      if (!members) {
        members = new Set();
        rooms.set(room, members);
      }
      members.add(socket);
      // Our own count at once, before the bus round trip, so the badge never shows 0 for oneself.
      remote.set(instance, { rooms: localCounts(), seenAt: options.now() });
      socket.send({ type: 'presence', dareId: dareIdOf(room), online: online(room) });
      publishPresence();
    },
    leave(socket: ChatSocketHandle, room: string) {
      if (!socket.rooms.has(room)) return;
      cutBatch(room);
      if (!writing && batches.length > 0) writeBatches();
      socket.rooms.delete(room);
      const members = rooms.get(room);
      members?.delete(socket);
      if (members?.size === 0) rooms.delete(room);
      remote.set(instance, { rooms: localCounts(), seenAt: options.now() });
      publishPresence();
    },
    leaveAll(socket: ChatSocketHandle) {
      for (const room of [...socket.rooms]) this.leave(socket, room);
    },
    /** Re-sent on every heartbeat so other instances can expire a crashed one's counts. */
    refreshPresence: publishPresence,
    online,
    close() {
      if (presenceTimer) clearTimeout(presenceTimer);
      if (announceTimer) clearTimeout(announceTimer);
      if (flushTimer) clearTimeout(flushTimer);
      if (flushImmediate) clearImmediate(flushImmediate);
      if (writing) clearImmediate(writing);
      flushTimer = null;
      flushImmediate = null;
      writing = null;
      pending.clear();
      batches.length = 0;
    },
  };
}

export type ChatHub = ReturnType<typeof createChatHub>;
