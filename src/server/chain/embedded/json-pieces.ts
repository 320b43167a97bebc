/**
 * JSON text of an RPC answer, produced in pieces so the served RPC can hand the event loop back
 * between them: a loader scan's answer is megabytes of base64, and stringifying it in one call
 * (JSON.stringify with a bigint replacer, then a pass to unwrap the bigints) held the app's
 * requests for 10 to 40 ms per answer (decision 039). u64 values (bigints) are written as JSON
 * numbers, as stringifyJsonWithBigInts writes them; everything else as JSON.stringify would.
 */

/** Longer strings are written in slices of this many characters, each its own piece. */
const STRING_SLICE = 64 * 1024;

export function* jsonPieces(value: unknown): Generator<string> {
  if (typeof value === 'bigint') {
    yield value.toString();
    return;
  }
  if (typeof value === 'string') {
    if (value.length <= STRING_SLICE) {
      yield JSON.stringify(value);
      return;
    }
    yield '"';
    // A slice may end inside a surrogate pair: JSON.stringify then escapes each half (\udXXX),
    // which a parser joins back into the same string.
    for (let at = 0; at < value.length; at += STRING_SLICE)
      yield JSON.stringify(value.slice(at, at + STRING_SLICE)).slice(1, -1);
    yield '"';
    return;
  }
  if (value === null || typeof value !== 'object') {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield* jsonPieces((value as { toJSON(): unknown }).toJSON());
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) yield ',';
      const item = value[index];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item);
    }
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item);
  }
  yield '}';
}

/** Characters written between two turns of the event loop. */
const CHARS_PER_TURN = 256 * 1024;

/**
 * `value` as JSON text in pieces, built over several turns of the event loop; null as soon as it
 * grows past `maxChars` (the rest is never built).
 */
export async function jsonTextWithin(value: unknown, maxChars: number): Promise<string[] | null> {
  const pieces: string[] = [];
  let total = 0;
  let sinceTurn = 0;
  for (const piece of jsonPieces(value)) {
    pieces.push(piece);
    total += piece.length;
    sinceTurn += piece.length;
    if (total > maxChars) return null;
    if (sinceTurn >= CHARS_PER_TURN) {
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return pieces;
}
