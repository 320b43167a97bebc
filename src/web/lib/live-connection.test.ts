import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationItem } from '#contract/notifications';
import { createLiveConnection, type LiveFrame, type LiveStatus } from './live-connection';

class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

let sockets: FakeSocket[];
let timers: { run: () => void; ms: number }[];
const realWebSocket = globalThis.WebSocket;

beforeEach(() => {
  sockets = [];
  timers = [];
  (globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;
});
afterEach(() => {
  (globalThis as { WebSocket: unknown }).WebSocket = realWebSocket;
});

function connection() {
  const statuses: LiveStatus[] = [];
  const chat = createLiveConnection({
    url: 'ws://test/ws',
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    setTimer: (run, ms) => timers.push({ run, ms }),
  });
  chat.onStatus((status) => statuses.push(status));
  return { chat, statuses };
}

describe('the live connection (chat and notifications)', () => {
  it('authenticates and re-joins its rooms on every open', () => {
    const { chat } = connection();
    chat.setToken('token-1');
    chat.join(7);
    chat.join(7);
    chat.start();
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'join', dareId: 7 },
    ]);
    chat.leave(7);
    expect(sockets[0]!.sent).toHaveLength(2);
    chat.leave(7);
    expect(sockets[0]!.sent.at(-1)).toEqual({ type: 'leave', dareId: 7 });
  });

  it('reconnects at most 5 times, 1 s x the attempt, and resets the count on success', () => {
    const { chat, statuses } = connection();
    chat.start();
    sockets[0]!.close();
    expect(timers.map((timer) => timer.ms)).toEqual([1000]);
    timers.shift()!.run();
    sockets[1]!.open();
    expect(chat.status).toBe('open');
    for (let attempt = 1; attempt <= 5; attempt++) {
      sockets.at(-1)!.close();
      expect(timers.at(-1)!.ms).toBe(1000 * attempt);
      timers.at(-1)!.run();
    }
    sockets.at(-1)!.close();
    expect(chat.status).toBe('offline');
    // The first timer was run and removed above; five more attempts, then no sixth.
    expect(timers).toHaveLength(5);
    expect(statuses).toContain('reconnecting');
  });

  it('sends only through an open socket', () => {
    const { chat } = connection();
    chat.start();
    expect(chat.send('too early', null)).toBe(false);
    sockets[0]!.open();
    expect(chat.send('hello', 3)).toBe(true);
    expect(sockets[0]!.sent).toEqual([{ type: 'chat_message', message: 'hello', dareId: 3 }]);
  });

  it('hands every frame, chat or notification, to each subscriber', () => {
    const { chat } = connection();
    const seen: LiveFrame[] = [];
    const unsubscribe = chat.subscribe((frame) => seen.push(frame));
    chat.start();
    sockets[0]!.open();
    const notification: NotificationItem = {
      id: 9,
      kind: 'winner-proposed',
      dareId: 4,
      title: 'A winner was named',
      body: 'Paid in 24 h unless vetoed',
      link: '/dare/4',
      createdAt: '2026-01-01T00:00:00.000Z',
      readAt: null,
    };
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'notification', notification }) });
    sockets[0]!.onmessage?.({ data: 'not json' });
    unsubscribe();
    sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'notification', notification }) });
    expect(seen).toEqual([{ type: 'notification', notification }]);
  });
});
