import type { ClientFrame, ServerFrame } from '#contract/chat';
import { CHAT_LIMITS } from '#contract/chat-limits';
import type { NotificationFrame } from '#contract/notifications';

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'offline';

/** What the server sends on /ws: chat frames, and the signed-in user's notifications. */
export type LiveFrame = ServerFrame | NotificationFrame;

type Listener = (frame: LiveFrame) => void;
type StatusListener = (status: LiveStatus) => void;

export interface LiveConnectionOptions {
  url: string;
  /** The socket factory: the browser's WebSocket, or a fake in unit tests. */
  createSocket?: (url: string) => WebSocket;
  setTimer?: (run: () => void, ms: number) => unknown;
}

/**
 * One socket for the whole page, shared by every chat panel and the notification bell. Rooms are reference-counted (two
 * panels on one dare join once) and re-joined after a reconnect; the session token is re-sent on
 * every open. Reconnects follow docs/product.md#chat-connection: at most 5 attempts, 1 s x the attempt number,
 * the count reset by a successful open.
 */
export function createLiveConnection(options: LiveConnectionOptions) {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const listeners = new Set<Listener>();
  const statusListeners = new Set<StatusListener>();
  const rooms = new Map<number, number>();
  let socket: WebSocket | null = null;
  let status: LiveStatus = 'offline';
  let attempts = 0;
  let token: string | null = null;
  let started = false;

  const setStatus = (next: LiveStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const write = (frame: ClientFrame) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  };

  function open() {
    const current = createSocket(options.url);
    socket = current;
    current.onopen = () => {
      attempts = 0;
      setStatus('open');
      if (token) write({ type: 'auth', token });
      for (const dareId of rooms.keys()) write({ type: 'join', dareId });
    };
    current.onmessage = (event) => {
      let frame: LiveFrame;
      try {
        frame = JSON.parse(String(event.data)) as LiveFrame;
      } catch {
        return;
      }
      for (const listener of listeners) listener(frame);
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      if (attempts >= CHAT_LIMITS.reconnectAttempts) {
        setStatus('offline');
        return;
      }
      attempts += 1;
      setStatus('reconnecting');
      setTimer(open, CHAT_LIMITS.reconnectStepMs * attempts);
    };
  }

  return {
    /** Opens the socket on first use; later calls do nothing. */
    start() {
      if (started) return;
      started = true;
      setStatus('connecting');
      open();
    },
    setToken(next: string | null) {
      if (next === token) return;
      token = next;
      // A visitor who signs in is authenticated on the same socket; signing out needs a new one.
      if (next) write({ type: 'auth', token: next });
      else socket?.close();
    },
    join(dareId: number) {
      const count = rooms.get(dareId) ?? 0;
      rooms.set(dareId, count + 1);
      if (count === 0) write({ type: 'join', dareId });
    },
    leave(dareId: number) {
      const count = rooms.get(dareId) ?? 0;
      if (count <= 1) {
        rooms.delete(dareId);
        write({ type: 'leave', dareId });
      } else rooms.set(dareId, count - 1);
    },
    send(message: string, dareId: number | null): boolean {
      if (socket?.readyState !== WebSocket.OPEN) return false;
      write({ type: 'chat_message', message, dareId });
      return true;
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onStatus(listener: StatusListener): () => void {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    get status() {
      return status;
    },
  };
}

export type LiveConnection = ReturnType<typeof createLiveConnection>;

let shared: LiveConnection | null = null;

/** The page's connection, to `/ws` on the page's host (wss behind https). */
export function sharedLiveConnection(): LiveConnection {
  if (!shared) {
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    shared = createLiveConnection({ url: `${protocol}//${window.location.host}/ws` });
  }
  return shared;
}
