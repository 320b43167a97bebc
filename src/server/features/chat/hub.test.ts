import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ServerFrame } from '#contract/chat';
import type { ChatBus, ChatEvent } from './bus';
import {
  type ChatSocketHandle,
  createChatHub,
  FAN_OUT_WINDOW_MS,
  GLOBAL_ROOM,
  SOCKETS_PER_CLOCK_READ,
} from './hub';
import type { OutgoingFrames } from './wire';

function fakeBus() {
  const handlers: ((event: ChatEvent) => void)[] = [];
  const bus: ChatBus = {
    publish: async () => {},
    subscribe: (handler) => handlers.push(handler),
  };
  return {
    bus,
    deliver(event: ChatEvent) {
      for (const handler of handlers) handler(event);
    },
  };
}

function fakeSocket() {
  const writes: string[][] = [];
  const handle: ChatSocketHandle = {
    rooms: new Set(),
    send: (_frame: ServerFrame) => {},
    sendFrames: (frames: OutgoingFrames) => {
      writes.push([...frames.texts]);
    },
  };
  return { handle, writes };
}

const message = (id: number, text: string): ChatEvent => ({
  kind: 'message',
  message: {
    id,
    dareId: null,
    userId: 1,
    username: 'u',
    message: text,
    type: 'user',
    createdAt: '',
  } as unknown as ChatMessage,
});
const texts = (writes: string[][]) =>
  writes.map((write) => write.map((text) => JSON.parse(text).message.message));
// The hub's timers and clock (setTimeout, setImmediate, performance.now) run on a clock the test
// moves: each step below is the event it waits for, never a sleep a busy machine can outlast.
beforeEach(() => {
  vi.useFakeTimers({
    toFake: [
      'setTimeout',
      'clearTimeout',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'performance',
    ],
  });
});
afterEach(() => {
  vi.useRealTimers();
});
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** The event loop's next turn (the hub's setImmediate), and no further. */
const nextTurn = () => elapse(0);
const afterWindow = () => elapse(FAN_OUT_WINDOW_MS + 5);

describe('chat hub fan-out', () => {
  it('sends a message that finds the hub idle at once, and what follows within the window as one write per socket, in order', async () => {
    const { bus, deliver } = fakeBus();
    const windowMs = 300;
    const hub = createChatHub(bus, { presenceTtlMs: 90_000, now: () => 0, fanOutWindowMs: windowMs });
    const a = fakeSocket();
    const b = fakeSocket();
    hub.join(a.handle, GLOBAL_ROOM);
    hub.join(b.handle, GLOBAL_ROOM);
    deliver(message(1, 'first'));
    // The event loop's next turn: no timer, no window.
    await nextTurn();
    expect(texts(a.writes)).toEqual([['first']]);
    expect(texts(b.writes)).toEqual([['first']]);
    // A burst right behind it waits for the window's end, then shares one write.
    deliver(message(2, 'second'));
    await nextTurn();
    deliver(message(3, 'third'));
    await elapse(windowMs / 3);
    expect(texts(a.writes)).toEqual([['first']]);
    await elapse(windowMs);
    expect(texts(a.writes)).toEqual([['first'], ['second', 'third']]);
    expect(texts(b.writes)).toEqual([['first'], ['second', 'third']]);
    // After a quiet window, at once again; frames arriving in one turn share a write.
    await elapse(windowMs + 20);
    deliver(message(4, 'fourth'));
    deliver(message(5, 'fifth'));
    await nextTurn();
    expect(texts(a.writes)).toEqual([['first'], ['second', 'third'], ['fourth', 'fifth']]);
    hub.close();
  });

  it('sends a message that follows a long fan-out at once: no pause after a flush, however long it took', async () => {
    const { bus, deliver } = fakeBus();
    const hub = createChatHub(bus, { presenceTtlMs: 90_000, now: () => 0 });
    // Each write takes 1 ms of the clock: the crowd's fan-out lasts several windows and slices.
    const crowd = Array.from({ length: SOCKETS_PER_CLOCK_READ * 3 }, () => {
      const member = fakeSocket();
      const write = member.handle.sendFrames;
      member.handle.sendFrames = (frames) => {
        write(frames);
        vi.advanceTimersByTime(1);
      };
      return member;
    });
    for (const member of crowd) hub.join(member.handle, GLOBAL_ROOM);
    deliver(message(1, 'first'));
    await vi.runAllTimersAsync();
    for (const member of crowd) expect(texts(member.writes)).toEqual([['first']]);
    // The next message, a moment after the last write: out in the event loop's next turn.
    deliver(message(2, 'second'));
    await nextTurn();
    for (const member of crowd) expect(texts(member.writes)).toEqual([['first'], ['second']]);
    hub.close();
  });

  it('delivers to the members of the moment a message arrived: not to a later join, still to a leaver', async () => {
    const { bus, deliver } = fakeBus();
    const hub = createChatHub(bus, { presenceTtlMs: 90_000, now: () => 0 });
    const stays = fakeSocket();
    const leaves = fakeSocket();
    const late = fakeSocket();
    hub.join(stays.handle, GLOBAL_ROOM);
    hub.join(leaves.handle, GLOBAL_ROOM);
    deliver(message(1, 'before'));
    hub.leave(leaves.handle, GLOBAL_ROOM);
    hub.join(late.handle, GLOBAL_ROOM);
    deliver(message(2, 'after'));
    await afterWindow();
    expect(texts(stays.writes)).toEqual([['before'], ['after']]);
    expect(texts(leaves.writes)).toEqual([['before']]);
    expect(texts(late.writes)).toEqual([['after']]);
    hub.close();
  });

  it("announces a room's changed count at once, then at most once per interval with the latest total", async () => {
    const { bus, deliver } = fakeBus();
    const intervalMs = 200;
    const hub = createChatHub(bus, { presenceTtlMs: 90_000, now: () => 0, presenceIntervalMs: intervalMs });
    const member = fakeSocket();
    hub.join(member.handle, GLOBAL_ROOM);
    const presence = (online: number): ChatEvent => ({
      kind: 'presence',
      instance: 'other',
      rooms: { global: online },
    });
    const announced = () =>
      member.writes.flat().flatMap((text) => {
        const frame = JSON.parse(text);
        return frame.type === 'presence' ? [frame.online] : [];
      });
    // A crowd arriving on another instance: its count changes with every event.
    deliver(presence(10));
    for (let online = 11; online <= 40; online++) deliver(presence(online));
    await afterWindow();
    expect(announced()).toEqual([11]);
    await elapse(intervalMs + FAN_OUT_WINDOW_MS * 2);
    expect(announced()).toEqual([11, 41]);
    // An unchanged count is not announced again; a change after a quiet interval goes out at once.
    deliver(presence(40));
    await elapse(intervalMs * 2 + FAN_OUT_WINDOW_MS * 2);
    deliver(presence(5));
    await afterWindow();
    expect(announced()).toEqual([11, 41, 6]);
    hub.close();
  });

  /** Three clock reads' worth of sockets, and no time to spare: each turn writes a third of them. */
  function crowdInSlices() {
    const { bus, deliver } = fakeBus();
    const hub = createChatHub(bus, { presenceTtlMs: 90_000, now: () => 0, writeSliceMs: 0 });
    const crowd = Array.from({ length: SOCKETS_PER_CLOCK_READ * 3 }, () => fakeSocket());
    for (const member of crowd) hub.join(member.handle, GLOBAL_ROOM);
    return { hub, deliver, crowd };
  }

  it('writes a crowd in slices, one turn of the event loop each, each socket still in order', async () => {
    const { hub, deliver, crowd } = crowdInSlices();
    deliver(message(1, 'first'));
    // The flush: its first slice only.
    await vi.advanceTimersToNextTimerAsync();
    expect(crowd.filter((member) => member.writes.length > 0)).toHaveLength(SOCKETS_PER_CLOCK_READ);
    // Between slices: messages and a new member. Each socket gets every message once, in order;
    // those the first was not written to yet get it with the others in one write; the newcomer
    // gets only what was sent after it joined.
    deliver(message(2, 'second'));
    const late = fakeSocket();
    hub.join(late.handle, GLOBAL_ROOM);
    deliver(message(3, 'third'));
    await elapse(FAN_OUT_WINDOW_MS * 10);
    for (const member of crowd.slice(0, SOCKETS_PER_CLOCK_READ))
      expect(texts(member.writes)).toEqual([['first'], ['second', 'third']]);
    for (const member of crowd.slice(SOCKETS_PER_CLOCK_READ))
      expect(texts(member.writes)).toEqual([['first', 'second', 'third']]);
    expect(texts(late.writes)).toEqual([['third']]);
    hub.close();
  });

  it('gives a socket waiting in a long fan-out every message that arrives meanwhile in its one write', async () => {
    const { hub, deliver, crowd } = crowdInSlices();
    // A message per slice while the first is still on its way to the crowd.
    deliver(message(1, 'first'));
    await vi.advanceTimersToNextTimerAsync();
    deliver(message(2, 'second'));
    await vi.advanceTimersToNextTimerAsync();
    deliver(message(3, 'third'));
    await elapse(FAN_OUT_WINDOW_MS * 10);
    const [early, middle, late] = [0, 1, 2].map((third) =>
      crowd.slice(third * SOCKETS_PER_CLOCK_READ, (third + 1) * SOCKETS_PER_CLOCK_READ),
    );
    for (const member of early!) expect(texts(member.writes)).toEqual([['first'], ['second', 'third']]);
    for (const member of middle!) expect(texts(member.writes)).toEqual([['first', 'second'], ['third']]);
    // Not reached before the third arrived: all three in one write.
    for (const member of late!) expect(texts(member.writes)).toEqual([['first', 'second', 'third']]);
    hub.close();
  });
});
