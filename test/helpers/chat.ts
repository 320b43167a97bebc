import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { ServerFrame } from '#contract/chat';

export interface ChatClient {
  socket: WebSocket;
  frames: ServerFrame[];
  send(frame: unknown): void;
  /** The first frame (already received or coming) matching `match`. */
  next<T extends ServerFrame>(match: (frame: ServerFrame) => frame is T, timeoutMs?: number): Promise<T>;
  next(match: (frame: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  close(): void;
}

/** The app listening on a real port, as a browser reaches /ws. */
export async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace('http', 'ws');
}

export async function connectChat(
  baseWsUrl: string,
  options: { autoPong?: boolean; headers?: Record<string, string> } = {},
): Promise<ChatClient> {
  const socket = new WebSocket(`${baseWsUrl}/ws`, {
    autoPong: options.autoPong ?? true,
    headers: options.headers,
  });
  const frames: ServerFrame[] = [];
  const waiters: { match: (frame: ServerFrame) => boolean; resolve: (frame: ServerFrame) => void }[] = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as ServerFrame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next(match: (frame: ServerFrame) => boolean, timeoutMs = 3000) {
      const seen = frames.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<ServerFrame>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching frame; got ${JSON.stringify(frames)}`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      });
    },
    closed,
    close: () => socket.close(),
  } as ChatClient;
}

export const isChat = (text: string) => (frame: ServerFrame) =>
  frame.type === 'chat_message' && frame.message.message === text;
export const isError = (text: string) => (frame: ServerFrame) =>
  frame.type === 'error' && frame.error === text;
export const isPresence = (dareId: number | null, online: number) => (frame: ServerFrame) =>
  frame.type === 'presence' && frame.dareId === dareId && frame.online === online;
