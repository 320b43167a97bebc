import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64';

describe('base64', () => {
  it('round-trips every byte value and matches Node', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64ToBytes(text)).toEqual(bytes);
  });

  it('handles arrays larger than one chunk', () => {
    const bytes = Uint8Array.from({ length: 40_000 }, (_, index) => (index * 7) % 256);
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
  });
});
