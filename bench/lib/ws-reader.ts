/**
 * A listen-only WebSocket client for the chat-cluster benchmark (RFC 6455 as a server speaks it to
 * a client: unmasked frames in, masked frames out), read with `net`'s `onread`: every socket of a
 * process reads into one reused buffer and hands the bytes straight to a callback. With `ws`, each
 * read allocated a buffer and went through a Readable stream, ws's Receiver (a Writable), a
 * `message` event and a string copy, per socket per frame: at 5,000 sockets the readers spent
 * twice the servers' CPU per message, on the same two cores as the servers (decision 039).
 * Answers pings (the server's heartbeat ends sockets that do not), reports close codes.
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OPCODE_TEXT = 0x1;
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;
/** Close code when the connection ends without a close frame (RFC 6455 7.1.5). */
export const ABNORMAL_CLOSURE = 1006;

export interface WsReaderHandlers {
  /**
   * A text frame's payload, `bytes` from `start` to `end` (only valid during the call: it may be
   * the shared read buffer), and when the read that completed it returned (`monotonicMs`).
   */
  onText(bytes: Buffer, start: number, end: number, at: number): void;
  onClose(code: number): void;
}

/** Shared by every socket of the process: reads are handled synchronously, one at a time. */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/** CLOCK_MONOTONIC in ms: the same clock in every process of the machine. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Pong with the ping's payload, masked with a zero key (a client must mask; any key is valid). */
function pongFrame(payload: Buffer): Buffer {
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x8a;
  frame[1] = 0x80 | payload.length;
  payload.copy(frame, 6);
  return frame;
}

/**
 * Opens `url` (ws://host:port/path) with the given extra headers; resolves once the server
 * answered 101 with the right Sec-WebSocket-Accept.
 */
export function openWsReader(
  url: string,
  headers: Record<string, string>,
  handlers: WsReaderHandlers,
): Promise<{ close(): void }> {
  const { hostname, port, pathname } = new URL(url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64');
  return new Promise((resolve, reject) => {
    let handshake: Buffer | null = Buffer.alloc(0);
    /** Bytes of a frame that did not arrive whole in one read. */
    let partial: Buffer | null = null;
    let closed = false;
    const finish = (code: number) => {
      if (closed) return;
      closed = true;
      socket.destroy();
      handlers.onClose(code);
    };

    /** Handles every whole frame in `bytes` up to `end`; returns the offset of an incomplete one (or `end`). */
    function frames(bytes: Buffer, end: number, arrivedAt: number): number {
      let at = 0;
      while (end - at >= 2) {
        const opcode = bytes[at]! & 0x0f;
        let length = bytes[at + 1]! & 0x7f;
        let header = 2;
        if (length === 126) {
          if (end - at < 4) break;
          length = bytes.readUInt16BE(at + 2);
          header = 4;
        } else if (length === 127) {
          if (end - at < 10) break;
          length = Number(bytes.readBigUInt64BE(at + 2));
          header = 10;
        }
        if (end - at < header + length) break;
        const start = at + header;
        at = start + length;
        if (opcode === OPCODE_TEXT) handlers.onText(bytes, start, at, arrivedAt);
        else if (opcode === OPCODE_PING) socket.write(pongFrame(bytes.subarray(start, at)));
        else if (opcode === OPCODE_CLOSE) {
          finish(length >= 2 ? bytes.readUInt16BE(start) : 1005);
          return end;
        } else {
          // Servers here never fragment (continuation) nor send binary frames.
          finish(ABNORMAL_CLOSURE);
          return end;
        }
      }
      return at;
    }

    /** `bytes` up to `end` just arrived (the shared read buffer, or a copy). */
    function onBytes(bytes: Buffer, end: number, at: number) {
      if (partial) {
        bytes = Buffer.concat([partial, bytes.subarray(0, end)]);
        end = bytes.length;
      }
      const used = frames(bytes, end, at);
      // Copied: the shared read buffer is overwritten by the next read of any socket.
      partial = used < end ? Buffer.from(bytes.subarray(used, end)) : null;
    }

    function onHandshake(chunk: Buffer) {
      handshake = Buffer.concat([handshake!, chunk]);
      const end = handshake.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = handshake.subarray(0, end).toString('latin1');
      const rest = handshake.subarray(end + 4);
      handshake = null;
      const acceptHeader = /\r\nsec-websocket-accept:\s*(\S+)/i.exec(head)?.[1];
      if (!head.startsWith('HTTP/1.1 101') || acceptHeader !== accept) {
        socket.destroy();
        reject(new Error(`WebSocket handshake refused: ${head.split('\r\n')[0]}`));
        return;
      }
      resolve({ close: () => finish(1000) });
      if (rest.length > 0) onBytes(rest, rest.length, monotonicMs());
    }

    const socket = net.connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: readBuffer,
        // Node reads into the buffer given here, so the callback's argument is readBuffer itself.
        callback(nread: number) {
          // Stamped first: every frame of this read arrived by now.
          const at = monotonicMs();
          if (handshake) onHandshake(readBuffer.subarray(0, nread));
          else if (!closed) onBytes(readBuffer, nread, at);
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    socket.once('connect', () => {
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
      );
    });
    socket.once('error', (error) => {
      if (handshake) reject(error);
      else finish(ABNORMAL_CLOSURE);
    });
    socket.once('close', () => {
      if (handshake) reject(new Error('connection closed during the WebSocket handshake'));
      else finish(ABNORMAL_CLOSURE);
    });
  });
}
