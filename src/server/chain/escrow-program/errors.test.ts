import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  customErrorCode,
  ESCROW_ERROR_CODE,
  ESCROW_ERRORS,
  escrowErrorMessage,
  escrowErrorName,
} from './errors';
import { ENTRY_SIZE, RECEIPT_SIZE, VAULT_SIZE } from './layout';

const source = readFileSync(
  path.join(import.meta.dirname, '../../../../program/src/darepool_escrow.c'),
  'utf8',
);

describe('escrow error codes', () => {
  it('are the C program’s codes, name for name', () => {
    const fromC = [...source.matchAll(/^#define E_([A-Z_]+) (\d+)$/gm)].map(([, name, code]) => [
      Number(code),
      name!
        .toLowerCase()
        .split('_')
        .map((part) => part[0]!.toUpperCase() + part.slice(1))
        .join(''),
    ]);
    expect(fromC.length).toBeGreaterThan(0);
    expect(fromC).toEqual(Object.entries(ESCROW_ERRORS).map(([code, [name]]) => [Number(code), name]));
  });

  it('read from a JSON-RPC transaction error, and only from a Custom instruction error', () => {
    expect(customErrorCode({ InstructionError: [1, { Custom: 17 }] })).toBe(17);
    expect(escrowErrorName(17)).toBe('VaultNotOpen');
    expect(ESCROW_ERROR_CODE.VaultNotOpen).toBe(17);
    expect(escrowErrorMessage(17)).toBe('This dare is no longer open');
    expect(customErrorCode({ InstructionError: [0, 'MissingRequiredSignature'] })).toBeNull();
    expect(customErrorCode('AccountInUse')).toBeNull();
    expect(customErrorCode(null)).toBeNull();
    expect(escrowErrorMessage(4242)).toBe('Escrow program error 4242');
  });
});

it('account sizes are the C program’s', () => {
  expect(source).toContain(`_Static_assert(sizeof(Vault) == ${VAULT_SIZE},`);
  expect(source).toContain(`_Static_assert(sizeof(Receipt) == ${RECEIPT_SIZE},`);
  expect(source).toContain(`_Static_assert(sizeof(Entry) == ${ENTRY_SIZE},`);
});
