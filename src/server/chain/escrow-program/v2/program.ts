import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The committed build of program/src/darepool_escrow_v2.c (CI checks it matches byte for byte). */
export const ESCROW_PROGRAM_V2_PATH = path.resolve(
  import.meta.dirname,
  '../../../../../program/build/darepool_escrow_v2.so',
);

export function readEscrowProgramV2(): Uint8Array {
  return new Uint8Array(readFileSync(ESCROW_PROGRAM_V2_PATH));
}
