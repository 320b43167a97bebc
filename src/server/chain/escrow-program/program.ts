import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The committed build of program/src (CI checks it matches the source byte for byte). */
export const ESCROW_PROGRAM_PATH = path.resolve(
  import.meta.dirname,
  '../../../../program/build/darepool_escrow.so',
);

export function readEscrowProgram(): Uint8Array {
  return new Uint8Array(readFileSync(ESCROW_PROGRAM_PATH));
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
