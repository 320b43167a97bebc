import { parseJsonWithBigInts, stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { describe, expect, it } from 'vitest';
import { jsonPieces, jsonTextWithin } from './json-pieces';

const text = (value: unknown) => [...jsonPieces(value)].join('');

describe('RPC answers as JSON in pieces', () => {
  it('writes what stringifyJsonWithBigInts writes: u64 as numbers, undefined skipped', () => {
    const answer = {
      jsonrpc: '2.0',
      id: 7,
      result: {
        context: { slot: 2n ** 64n - 1n },
        value: [
          {
            pubkey: 'abc',
            account: { data: ['AAEC', 'base64'], lamports: 10n, executable: false, rentEpoch: 0n },
          },
        ],
        nothing: null,
        skipped: undefined,
        list: [1.5, undefined, 'é "quoted" \\n', true],
      },
    };
    expect(text(answer)).toBe(stringifyJsonWithBigInts(answer));
  });

  it('slices a long string into pieces that read back as the same string, surrogate pairs included', () => {
    const long = `${'a'.repeat(64 * 1024 - 1)}😀${'b"'.repeat(70_000)}`;
    const pieces = [...jsonPieces({ data: long })];
    expect(pieces.length).toBeGreaterThan(4);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(2 * 64 * 1024 + 2);
    expect(parseJsonWithBigInts(pieces.join(''))).toEqual({ data: long });
  });

  it('stops building an answer as soon as it passes the cap', async () => {
    const value = { data: 'x'.repeat(1_000_000) };
    expect(await jsonTextWithin(value, 200_000)).toBeNull();
    expect((await jsonTextWithin(value, 2_000_000))?.join('')).toBe(JSON.stringify(value));
  });
});
