/**
 * Reading instructions back by name: a table keyed by program id and instruction tag (the first
 * data byte), so the local explorer can say 'settle' where the chain only has bytes. A program
 * version that adds instructions (v2's propose, veto, execute) adds rows to its own table; the
 * lookup does not change.
 */
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { createVaultV1HeadCodec, createVaultV2HeadCodec, depositHeadCodec } from './codec';
import { INSTRUCTION } from './instructions';
import { INSTRUCTION_V2 } from './v2/instructions';

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
  /** Roles read from the data itself, when the accounts' layout depends on it (v2's propose). */
  accountsFor?: (bytes: Uint8Array, count: number) => readonly string[];
  data?: (bytes: Uint8Array) => DecodedData | null;
}

export interface DecodedInstruction {
  program: string;
  name: string;
  /** Role -> address, e.g. { vault, receipt, payer }; repeated roles get a number: winner1, entry1. */
  accounts: Record<string, string>;
  data: DecodedData;
}

/**
 * The fields of a create_vault (either version) or a deposit its data begins with: null when the
 * data is too short to hold them (what follows them is not read).
 */
function readHead<T>(
  codec: { fixedSize: number; decode(bytes: Uint8Array): T },
  bytes: Uint8Array,
): T | null {
  return bytes.length < codec.fixedSize ? null : codec.decode(bytes);
}

/** Either version's create_vault head: the amount and kind are what the explorer shows. */
function createVaultData(codec: {
  fixedSize: number;
  decode(bytes: Uint8Array): { amount: bigint; kind: number };
}) {
  return (bytes: Uint8Array): DecodedData | null => {
    const head = readHead(codec, bytes);
    return head && { amount: head.amount, kind: head.kind === 1 ? 'major' : 'community' };
  };
}

/** The escrow program v1 (program/src/darepool_escrow.c; docs/program.md), tag -> instruction. */
export const ESCROW_V1_INSTRUCTIONS: ReadonlyMap<number, InstructionSpec> = new Map<number, InstructionSpec>([
  [
    INSTRUCTION.createVault,
    {
      name: 'create vault',
      accounts: ['payer', 'rentPayer', 'vault', 'receipt', 'systemProgram'],
      data: createVaultData(createVaultV1HeadCodec),
    },
  ],
  [
    INSTRUCTION.deposit,
    {
      name: 'deposit',
      accounts: ['payer', 'rentPayer', 'vault', 'receipt', 'systemProgram'],
      data: (bytes) => {
        const head = readHead(depositHeadCodec, bytes);
        return head && { amount: head.amount };
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

/** Escrow program v2 (program/src/darepool_escrow_v2.c; docs/program.md): judges propose, anyone executes. */
export const ESCROW_V2_INSTRUCTIONS: ReadonlyMap<number, InstructionSpec> = new Map<number, InstructionSpec>([
  [
    INSTRUCTION_V2.createVault,
    {
      name: 'create vault',
      accounts: ['payer', 'rentPayer', 'vault', 'receipt', 'systemProgram'],
      data: createVaultData(createVaultV2HeadCodec),
    },
  ],
  [INSTRUCTION_V2.deposit, ESCROW_V1_INSTRUCTIONS.get(INSTRUCTION.deposit)!],
  [INSTRUCTION_V2.enter, ESCROW_V1_INSTRUCTIONS.get(INSTRUCTION.enter)!],
  [
    INSTRUCTION_V2.propose,
    {
      name: 'propose',
      accounts: ['vault'],
      // vault, then (winner, entry) per winner (the count is the data's second byte), then judges.
      accountsFor: (bytes, count) => {
        const winners = bytes[1] ?? 0;
        const roles = ['vault'];
        for (let i = 1; i <= winners; i++) roles.push(`winner${i}`, `entry${i}`);
        for (let j = 1; roles.length < count; j++) roles.push(`judge${j}`);
        return roles;
      },
    },
  ],
  [INSTRUCTION_V2.veto, { name: 'veto', accounts: ['guardian', 'vault'] }],
  [INSTRUCTION_V2.execute, { name: 'execute', accounts: ['vault'], repeat: ['winner'] }],
  [INSTRUCTION_V2.cancel, { name: 'cancel', accounts: ['canceller', 'vault'] }],
  [INSTRUCTION_V2.refund, ESCROW_V1_INSTRUCTIONS.get(INSTRUCTION.refund)!],
  [INSTRUCTION_V2.closeEntry, ESCROW_V1_INSTRUCTIONS.get(INSTRUCTION.closeEntry)!],
  [INSTRUCTION_V2.closeReceipt, ESCROW_V1_INSTRUCTIONS.get(INSTRUCTION.closeReceipt)!],
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
    if (spec.accountsFor) {
      const roles = spec.accountsFor(data, accounts.length);
      accounts.forEach((address, index) => {
        if (roles[index]) named[roles[index]] = address;
      });
      return { program: known.program, name: spec.name, accounts: named, data: decodedData };
    }
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

/**
 * Solana's Compute Budget program, which leads every transaction the server builds (decision 068):
 * validators leave its instructions unparsed, so the explorer names them itself.
 */
const COMPUTE_BUDGET: KnownProgram = {
  programId: COMPUTE_BUDGET_PROGRAM_ADDRESS,
  program: 'Compute Budget',
  instructions: new Map([
    [2, { name: 'setComputeUnitLimit', accounts: [] }],
    [3, { name: 'setComputeUnitPrice', accounts: [] }],
  ]),
};

/**
 * The escrow programs deployed at these ids (each when given: a chain without v1 names none,
 * decision 081), and the Compute Budget program, as the explorer names them.
 */
export function escrowProgramDecoder(programId: string | null, programV2Id?: string): InstructionDecoder {
  return createInstructionDecoder([
    COMPUTE_BUDGET,
    ...(programId ? [{ programId, program: 'DarePool escrow', instructions: ESCROW_V1_INSTRUCTIONS }] : []),
    ...(programV2Id
      ? [{ programId: programV2Id, program: 'DarePool escrow', instructions: ESCROW_V2_INSTRUCTIONS }]
      : []),
  ]);
}
