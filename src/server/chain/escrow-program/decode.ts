/**
 * Reading instructions back by name: a table keyed by program id and instruction tag (the first
 * data byte), so the local explorer can say 'settle' where the chain only has bytes. A program
 * version that adds instructions (v2's propose, veto, execute) adds rows to its own table; the
 * lookup does not change.
 */
import { INSTRUCTION } from './instructions';

/** What a decoded instruction says beyond its account names. */
export interface DecodedData {
  /** Lamports the instruction moves by its own data (create vault, deposit), when it says so. */
  amount?: bigint;
  kind?: 'community' | 'major';
}

export interface InstructionSpec {
  /** The name users read: 'create vault', 'settle', 'close receipt'. */
  name: string;
  /** The accounts' roles in order; accounts past the list repeat `repeat` (settle's winners). */
  accounts: readonly string[];
  repeat?: readonly string[];
  data?: (bytes: Uint8Array) => DecodedData | null;
}

export interface DecodedInstruction {
  program: string;
  name: string;
  /** Role -> address, e.g. { vault, receipt, payer }; repeated roles get a number: winner1, entry1. */
  accounts: Record<string, string>;
  data: DecodedData;
}

function u64At(bytes: Uint8Array, offset: number): bigint | null {
  if (bytes.length < offset + 8) return null;
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0, true);
}

/** The escrow program v1 (program/src/darepool_escrow.c; docs/program.md), tag -> instruction. */
export const ESCROW_V1_INSTRUCTIONS: ReadonlyMap<number, InstructionSpec> = new Map<number, InstructionSpec>([
  [
    INSTRUCTION.createVault,
    {
      name: 'create vault',
      accounts: ['payer', 'rentPayer', 'vault', 'receipt', 'systemProgram'],
      // tag, dare id (32), moderator (32), deadline, refund_after, amount, kind, bumps
      data: (bytes) => {
        const amount = u64At(bytes, 81);
        if (amount === null || bytes.length < 90) return null;
        return { amount, kind: bytes[89] === 1 ? 'major' : 'community' };
      },
    },
  ],
  [
    INSTRUCTION.deposit,
    {
      name: 'deposit',
      accounts: ['payer', 'rentPayer', 'vault', 'receipt', 'systemProgram'],
      data: (bytes) => {
        const amount = u64At(bytes, 1);
        return amount === null ? null : { amount };
      },
    },
  ],
  [
    INSTRUCTION.enter,
    { name: 'enter', accounts: ['entrant', 'rentPayer', 'vault', 'entry', 'systemProgram'] },
  ],
  [INSTRUCTION.settle, { name: 'settle', accounts: ['moderator', 'vault'], repeat: ['winner', 'entry'] }],
  [INSTRUCTION.cancel, { name: 'cancel', accounts: ['moderator', 'vault'] }],
  [
    INSTRUCTION.refund,
    { name: 'refund', accounts: ['vault', 'receipt', 'payer', 'receiptRentPayer', 'vaultRentPayer'] },
  ],
  [
    INSTRUCTION.closeEntry,
    { name: 'close entry', accounts: ['vault', 'entry', 'entryRentPayer', 'vaultRentPayer'] },
  ],
  [
    INSTRUCTION.closeReceipt,
    { name: 'close receipt', accounts: ['vault', 'receipt', 'receiptRentPayer', 'vaultRentPayer'] },
  ],
]);

export interface KnownProgram {
  programId: string;
  /** How the program is named on the page. */
  program: string;
  instructions: ReadonlyMap<number, InstructionSpec>;
}

/** A decoder for these programs; null for any other program, an unknown tag or short data. */
export function createInstructionDecoder(programs: readonly KnownProgram[]) {
  const byId = new Map(programs.map((known) => [known.programId, known]));
  return function decode(
    programId: string,
    accounts: readonly string[],
    data: Uint8Array,
  ): DecodedInstruction | null {
    const known = byId.get(programId);
    const tag = data[0];
    const spec = known && tag !== undefined ? known.instructions.get(tag) : undefined;
    if (!known || !spec) return null;
    const decodedData = spec.data ? spec.data(data) : {};
    if (decodedData === null) return null;
    const named: Record<string, string> = {};
    accounts.forEach((address, index) => {
      if (index < spec.accounts.length) {
        named[spec.accounts[index]!] = address;
        return;
      }
      const repeat = spec.repeat;
      if (!repeat) return;
      const at = index - spec.accounts.length;
      named[`${repeat[at % repeat.length]}${Math.floor(at / repeat.length) + 1}`] = address;
    });
    return { program: known.program, name: spec.name, accounts: named, data: decodedData };
  };
}

export type InstructionDecoder = ReturnType<typeof createInstructionDecoder>;

/** The escrow program deployed at `programId`, as the explorer names it. */
export function escrowProgramDecoder(programId: string): InstructionDecoder {
  return createInstructionDecoder([
    { programId, program: 'DarePool escrow', instructions: ESCROW_V1_INSTRUCTIONS },
  ]);
}
