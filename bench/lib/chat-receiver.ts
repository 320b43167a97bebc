/**
 * One receiving process of the chat-cluster benchmark (forked by bench/lib/chat-receivers.ts): it
 * holds its share of the listening sockets, so that no single client event loop has to read all
 * 50,000 frames and the latency measured is mostly the servers'. Each chat frame's arrival is
 * stamped first thing, on the machine's monotonic clock (`process.hrtime`, CLOCK_MONOTONIC: the
 * same clock in every process), before the frame is even parsed.
 *
 * IPC, parent to child: `open` (the sockets to open), `report` (the texts to check), `close`.
 * Child to parent: `opened`, `complete` (every socket here has a text), `report`, `failed`.
 */
import WebSocket from 'ws';

export interface ReceiverSocket {
  url: string;
  /** X-Forwarded-For: the client address the socket comes from. */
  address: string;
}

export type ToReceiver =
  | { type: 'open'; sockets: ReceiverSocket[] }
  | { type: 'report'; texts: string[] }
  | { type: 'close' };

export type FromReceiver =
  | { type: 'opened' }
  | { type: 'complete'; text: string }
  | {
      type: 'report';
      /** Per text, the arrival times (ms on the monotonic clock) of its deliveries here. */
      arrivals: Record<string, number[]>;
      /** (socket, text) pairs not received exactly once. */
      wrong: number;
      /** Sockets the servers closed during the run (past an allowance, a restart). */
      closed: number[];
    }
  | { type: 'failed'; error: string };

export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

const send = (message: FromReceiver) => process.send?.(message);

function open(target: ReceiverSocket, onText: (text: string, at: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${target.url}/ws`, { headers: { 'x-forwarded-for': target.address } });
    // Stamped before anything else is done with the frame.
    socket.on('message', (data) => {
      const at = monotonicMs();
      onText(data.toString(), at);
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('close', (code) => {
      if (code !== 1000 && code !== 1005) closeCodes.push(code);
    });
  });
}

const closeCodes: number[] = [];
const sockets: WebSocket[] = [];
/** Per socket: how many times each benchmark text arrived. */
const counts: Map<string, number>[] = [];
/** Per text: arrival times, and how many sockets here have it. */
const arrivals = new Map<string, number[]>();
const holders = new Map<string, number>();

function received(index: number, text: string, at: number) {
  // Presence frames and other chatter are skipped without a parse.
  if (!text.startsWith('{"type":"chat_message"')) return;
  const sent = (JSON.parse(text) as { message: { message: string } }).message.message;
  const seen = counts[index]!;
  const times = seen.get(sent);
  seen.set(sent, (times ?? 0) + 1);
  let list = arrivals.get(sent);
  if (!list) {
    list = [];
    arrivals.set(sent, list);
  }
  list.push(at);
  if (times !== undefined) return;
  const have = (holders.get(sent) ?? 0) + 1;
  holders.set(sent, have);
  if (have === sockets.length) send({ type: 'complete', text: sent });
}

async function openAll(targets: ReceiverSocket[]) {
  // 100 at a time: a burst of thousands of handshakes is not what is measured.
  for (let i = 0; i < targets.length; i += 100) {
    const batch = await Promise.all(
      targets.slice(i, i + 100).map((target, j) => {
        const index = i + j;
        counts[index] = new Map();
        return open(target, (text, at) => received(index, text, at));
      }),
    );
    sockets.push(...batch);
  }
}

process.on('message', (message: ToReceiver) => {
  if (message.type === 'open') {
    openAll(message.sockets).then(
      () => send({ type: 'opened' }),
      (error: unknown) =>
        send({ type: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
  } else if (message.type === 'report') {
    let wrong = 0;
    for (const seen of counts) for (const text of message.texts) if (seen.get(text) !== 1) wrong += 1;
    send({ type: 'report', arrivals: Object.fromEntries(arrivals), wrong, closed: closeCodes });
  } else if (message.type === 'close') {
    for (const socket of sockets) socket.terminate();
    process.disconnect();
  }
});
