/**
 * Room-wide frames go out as bytes encoded once for every socket of the room: with thousands of
 * sockets, framing each copy (ws's Sender: a header, a cork, a writev) was a fifth of a delivery's
 * cost, and one write per socket per message was the rest (decision 039).
 */

/** Frames of one room collected within one turn of the event loop, serialized once. */
export interface OutgoingFrames {
  /** Each frame's JSON, in order: for a socket that cannot take raw bytes. */
  readonly texts: readonly string[];
  /** The same frames as unmasked, final WebSocket text frames (RFC 6455 5.2), back to back. */
  wire(): Buffer;
}

const TEXT_FRAME = 0x81; // FIN + opcode 1 (text)

function frameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([TEXT_FRAME, length]);
  if (length < 0x10000) {
    const header = Buffer.allocUnsafe(4);
    header[0] = TEXT_FRAME;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.allocUnsafe(10);
  header[0] = TEXT_FRAME;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

/** A server's text frames (servers never mask), concatenated into one buffer. */
export function encodeTextFrames(texts: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const text of texts) {
    const payload = Buffer.from(text, 'utf8');
    parts.push(frameHeader(payload.length), payload);
  }
  return Buffer.concat(parts);
}

export function outgoingFrames(texts: readonly string[]): OutgoingFrames {
  let wire: Buffer | null = null;
  return {
    texts,
    wire: () => {
      wire ??= encodeTextFrames(texts);
      return wire;
    },
  };
}
