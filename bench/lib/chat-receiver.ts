/**
 * One receiving process of the chat-cluster benchmark (forked by bench/lib/chat-receivers.ts): it
 * holds its share of the listening sockets, so that no single client event loop has to read all
 * 50,000 frames. Sockets are bench/lib/ws-reader.ts's listen-only clients; each frame's arrival is
 * the moment its read returned, on the machine's monotonic clock (the same clock in every
 * process), stamped before the bytes are looked at.
 *
 * A chat frame's text is read from its bytes, not by JSON.parse (decision 039): in a JSON text
 * `"message":"` can only be a key followed by a string (a quote inside a string is escaped), and
 * in a `chat_message` frame the outer "message" holds an object, so the first such key is the
 * message's text. The first socket of each process also parses every frame in full and fails the
 * run if the two readings ever differ.
 *
 * IPC, parent to child: `open` (the sockets to open), `report` (the texts to check), `close`.
 * Child to parent: `opened`, `complete` (every socket here has a text), `report`, `failed`.
 */
import { monotonicMs, openWsReader } from './ws-reader';

export { monotonicMs };

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

const send = (message: FromReceiver) => process.send?.(message);

const CHAT_FRAME = Buffer.from('{"type":"chat_message"');
const TEXT_KEY = Buffer.from('"message":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The chat message's text in a frame's payload (`bytes` from `start` to `end`); null for any other frame. */
export function chatText(bytes: Buffer, start: number, end: number): string | null {
  if (
    end - start < CHAT_FRAME.length ||
    bytes.compare(CHAT_FRAME, 0, CHAT_FRAME.length, start, start + CHAT_FRAME.length) !== 0
  )
    return null;
  const key = bytes.indexOf(TEXT_KEY, start + CHAT_FRAME.length);
  const from = key + TEXT_KEY.length;
  const to = key === -1 ? -1 : bytes.indexOf(QUOTE, from);
  if (to === -1 || to >= end) throw new Error('a chat frame without its text');
  // An escape in the text: rare (the bench's texts have none), and JSON knows what it means.
  if (bytes.subarray(from, to).includes(BACKSLASH))
    return (JSON.parse(bytes.toString('utf8', start, end)) as { message: { message: string } }).message
      .message;
  return bytes.toString('utf8', from, to);
}

const closeCodes: number[] = [];
const sockets: { close(): void }[] = [];
/** Per socket: how many times each benchmark text arrived. */
const counts: Map<string, number>[] = [];
/** Per text: arrival times, and how many sockets here have it. */
const arrivals = new Map<string, number[]>();
const holders = new Map<string, number>();
let expected = 0;

function fail(error: unknown) {
  send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
}

function received(index: number, bytes: Buffer, start: number, end: number, at: number) {
  const sent = chatText(bytes, start, end);
  if (index === 0) {
    const frame = JSON.parse(bytes.toString('utf8', start, end)) as {
      type: string;
      message?: { message: string };
    };
    const parsed = frame.type === 'chat_message' ? frame.message!.message : null;
    if (parsed !== sent) fail(`frame read as ${JSON.stringify(sent)}, parsed as ${JSON.stringify(parsed)}`);
  }
  if (sent === null) return;
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
  if (have === expected) send({ type: 'complete', text: sent });
}

async function openAll(targets: ReceiverSocket[]) {
  expected = targets.length;
  // 100 at a time: a burst of thousands of handshakes is not what is measured.
  for (let i = 0; i < targets.length; i += 100) {
    const batch = await Promise.all(
      targets.slice(i, i + 100).map((target, j) => {
        const index = i + j;
        counts[index] = new Map();
        return openWsReader(
          `${target.url}/ws`,
          { 'X-Forwarded-For': target.address },
          {
            onText: (bytes, start, end, at) => received(index, bytes, start, end, at),
            onClose: (code) => {
              if (code !== 1000 && code !== 1005) closeCodes.push(code);
            },
          },
        );
      }),
    );
    sockets.push(...batch);
  }
}

process.on('message', (message: ToReceiver) => {
  if (message.type === 'open') {
    openAll(message.sockets).then(() => send({ type: 'opened' }), fail);
  } else if (message.type === 'report') {
    let wrong = 0;
    for (const seen of counts) for (const text of message.texts) if (seen.get(text) !== 1) wrong += 1;
    send({ type: 'report', arrivals: Object.fromEntries(arrivals), wrong, closed: closeCodes });
  } else if (message.type === 'close') {
    for (const socket of sockets) socket.close();
    process.disconnect();
  }
});
