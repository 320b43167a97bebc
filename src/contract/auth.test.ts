import { describe, expect, it } from 'vitest';
import { base58ByteLength, walletAddressSchema } from './auth';
import { isRecordId, RECORD_ID_MAX } from './ids';

describe('base58ByteLength', () => {
  it('counts leading ones as zero bytes and rejects other alphabets', () => {
    expect(base58ByteLength('11111111111111111111111111111111')).toBe(32);
    expect(base58ByteLength('2'.repeat(32))).toBe(23);
    expect(base58ByteLength('0OIl')).toBeNull();
    expect(base58ByteLength('')).toBe(0);
  });

  it('lets the wallet schema take real keys only', () => {
    expect(walletAddressSchema.safeParse('So11111111111111111111111111111111111111112').success).toBe(true);
    expect(walletAddressSchema.safeParse('2'.repeat(32)).success).toBe(false);
    expect(walletAddressSchema.safeParse('z'.repeat(44)).success).toBe(false);
  });
});

describe('isRecordId', () => {
  it('takes positive integers up to the id column maximum, written as digits', () => {
    expect(isRecordId('1')).toBe(true);
    expect(isRecordId(String(RECORD_ID_MAX))).toBe(true);
    for (const text of [String(RECORD_ID_MAX + 1), '0', '-1', '1.5', '1e3', 'abc', '', ' 1']) {
      expect(isRecordId(text), text).toBe(false);
    }
  });
});
